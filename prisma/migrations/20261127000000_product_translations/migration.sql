-- A product's description and activation instructions per interface language; the product's own
-- columns stay as the fallback for a language without a row.

-- CreateTable
CREATE TABLE "product_translations" (
    "product_id" INTEGER NOT NULL,
    "locale" VARCHAR(8) NOT NULL,
    "description" TEXT NOT NULL,
    "activation_instructions" TEXT NOT NULL,

    CONSTRAINT "product_translations_pkey" PRIMARY KEY ("product_id", "locale")
);

-- AddForeignKey
ALTER TABLE "product_translations" ADD CONSTRAINT "product_translations_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Beyond schema.prisma: only the store's four languages.
ALTER TABLE "product_translations" ADD CONSTRAINT "product_translations_locale_check" CHECK ("locale" IN ('pt-BR', 'en', 'ru', 'hi'));
