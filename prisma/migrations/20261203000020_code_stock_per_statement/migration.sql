-- A batch of new codes (an operator's import, the demo's seed) counted into its products' stock once
-- per product and statement instead of once per code. Each per-row count was an UPDATE of the
-- product: a new row version, so a new entry in every one of its indexes (both trigram indexes of
-- the name among them) and a catalogue notification, per code. A thousand codes for one product now
-- make one update of it. Updates and deletes of codes (a reservation, a sale, a release: one code
-- at a time) keep the row trigger, which costs them nothing extra.

CREATE FUNCTION "product_codes_stock_count_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "products" AS p
  SET "stock_count" = p."stock_count" + added."count"
  FROM (
    SELECT "product_id", count(*) AS "count"
    FROM "inserted_codes"
    WHERE "status" = 'AVAILABLE'
    GROUP BY "product_id"
  ) AS added
  WHERE p."id" = added."product_id";
  RETURN NULL;
END;
$$;

DROP TRIGGER "product_codes_stock_count" ON "product_codes";

CREATE TRIGGER "product_codes_stock_count"
AFTER DELETE OR UPDATE OF "status", "product_id" ON "product_codes"
FOR EACH ROW EXECUTE FUNCTION "product_codes_stock_count"();

CREATE TRIGGER "product_codes_stock_count_inserted"
AFTER INSERT ON "product_codes"
REFERENCING NEW TABLE AS "inserted_codes"
FOR EACH STATEMENT EXECUTE FUNCTION "product_codes_stock_count_inserted"();
