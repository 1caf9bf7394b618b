-- Codes are reserved for an order when it is made, so that a shopper never pays for a code that is
-- not there: RESERVED, tied to the order's line, out of the product's stock. Paying the order sells
-- them; an order that ends unpaid gives them back. The status type is made again with the new value
-- (a value added inside the migration's transaction could not be used by its check).

ALTER TABLE "product_codes" DROP CONSTRAINT "product_codes_sold_check";
-- The stock trigger names the column, so it is put back once the column has its new type.
DROP TRIGGER "product_codes_stock_count" ON "product_codes";
ALTER TYPE "product_code_status" RENAME TO "product_code_status_old";
CREATE TYPE "product_code_status" AS ENUM ('AVAILABLE', 'RESERVED', 'SOLD');
ALTER TABLE "product_codes" ALTER COLUMN "status" DROP DEFAULT;
ALTER TABLE "product_codes" ALTER COLUMN "status" TYPE "product_code_status" USING "status"::text::"product_code_status";
ALTER TABLE "product_codes" ALTER COLUMN "status" SET DEFAULT 'AVAILABLE';
DROP TYPE "product_code_status_old";
CREATE TRIGGER "product_codes_stock_count"
AFTER INSERT OR DELETE OR UPDATE OF "status", "product_id" ON "product_codes"
FOR EACH ROW EXECUTE FUNCTION "product_codes_stock_count"();

-- A code reserved or sold belongs to exactly one order line; one in stock to none.
ALTER TABLE "product_codes" ADD CONSTRAINT "product_codes_sold_check"
  CHECK (("status" IN ('RESERVED', 'SOLD')) = ("order_line_id" IS NOT NULL));
-- Sold codes, and only those, say when.
ALTER TABLE "product_codes" ADD CONSTRAINT "product_codes_sold_at_check" CHECK (("status" = 'SOLD') = ("sold_at" IS NOT NULL));
