-- "Tell me when it is back": who to write to, once, when a sold-out product has stock again.

-- CreateTable
CREATE TABLE "stock_notifications" (
    "id" UUID NOT NULL,
    "product_id" INTEGER NOT NULL,
    "email" VARCHAR(128) NOT NULL,
    "locale" VARCHAR(8) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "notified_at" TIMESTAMPTZ(3),

    CONSTRAINT "stock_notifications_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "stock_notifications_product_id_email_key" ON "stock_notifications"("product_id", "email");

-- CreateIndex
CREATE INDEX "stock_notifications_product_id_notified_at_idx" ON "stock_notifications"("product_id", "notified_at");

-- AddForeignKey
ALTER TABLE "stock_notifications" ADD CONSTRAINT "stock_notifications_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Beyond schema.prisma: only the store's four languages.
ALTER TABLE "stock_notifications" ADD CONSTRAINT "stock_notifications_locale_check" CHECK ("locale" IN ('pt-BR', 'en', 'ru', 'hi'));
