-- The basket lists its lines in the order they were added.
ALTER TABLE "basket_lines" ADD COLUMN "position" INTEGER NOT NULL DEFAULT 0;

-- CreateEnum
CREATE TYPE "basket_request_kind" AS ENUM ('FLUSH', 'MERGE');

-- Flush and merge ids already applied, so that a retried request is applied once.
CREATE TABLE "basket_requests" (
    "user_id" UUID NOT NULL,
    "request_id" UUID NOT NULL,
    "kind" "basket_request_kind" NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "basket_requests_pkey" PRIMARY KEY ("user_id", "request_id")
);

-- CreateIndex
CREATE INDEX "basket_requests_created_at_idx" ON "basket_requests"("created_at");

-- AddForeignKey
ALTER TABLE "basket_requests" ADD CONSTRAINT "basket_requests_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The scope of a promo code: categories and products.
CREATE TABLE "promo_code_categories" (
    "promo_code_id" INTEGER NOT NULL,
    "category_id" INTEGER NOT NULL,

    CONSTRAINT "promo_code_categories_pkey" PRIMARY KEY ("promo_code_id", "category_id")
);

CREATE TABLE "promo_code_products" (
    "promo_code_id" INTEGER NOT NULL,
    "product_id" INTEGER NOT NULL,

    CONSTRAINT "promo_code_products_pkey" PRIMARY KEY ("promo_code_id", "product_id")
);

-- CreateIndex
CREATE INDEX "promo_code_categories_category_id_idx" ON "promo_code_categories"("category_id");

-- CreateIndex
CREATE INDEX "promo_code_products_product_id_idx" ON "promo_code_products"("product_id");

-- AddForeignKey
ALTER TABLE "promo_code_categories" ADD CONSTRAINT "promo_code_categories_promo_code_id_fkey" FOREIGN KEY ("promo_code_id") REFERENCES "promo_codes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "promo_code_categories" ADD CONSTRAINT "promo_code_categories_category_id_fkey" FOREIGN KEY ("category_id") REFERENCES "categories"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "promo_code_products" ADD CONSTRAINT "promo_code_products_promo_code_id_fkey" FOREIGN KEY ("promo_code_id") REFERENCES "promo_codes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "promo_code_products" ADD CONSTRAINT "promo_code_products_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Beyond schema.prisma: what a promo code may hold. Codes are looked up upper-cased, so a code
-- stored otherwise could never be found; the usage count can never pass the limit, whatever
-- writes it; a validity window ends after it starts.
ALTER TABLE "promo_codes" ADD CONSTRAINT "promo_codes_code_check" CHECK ("code" ~ '^[A-Z0-9_-]{3,32}$');
ALTER TABLE "promo_codes" ADD CONSTRAINT "promo_codes_uses_check" CHECK ("max_uses" IS NULL OR "max_uses" > 0);
ALTER TABLE "promo_codes" ADD CONSTRAINT "promo_codes_used_count_check" CHECK ("used_count" >= 0 AND ("max_uses" IS NULL OR "used_count" <= "max_uses"));
ALTER TABLE "promo_codes" ADD CONSTRAINT "promo_codes_validity_check" CHECK ("valid_from" IS NULL OR "valid_until" IS NULL OR "valid_from" < "valid_until");
