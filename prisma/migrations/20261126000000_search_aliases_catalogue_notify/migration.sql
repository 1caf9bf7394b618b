-- CreateTable
CREATE TABLE "search_aliases" (
    "id" SERIAL NOT NULL,
    "term" VARCHAR(64) NOT NULL,
    "locale" VARCHAR(8),
    "category_id" INTEGER,
    "country_id" INTEGER,
    "currency_id" INTEGER,

    CONSTRAINT "search_aliases_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "search_aliases_category_id_term_key" ON "search_aliases"("category_id", "term");

-- CreateIndex
CREATE UNIQUE INDEX "search_aliases_country_id_term_key" ON "search_aliases"("country_id", "term");

-- CreateIndex
CREATE UNIQUE INDEX "search_aliases_currency_id_term_key" ON "search_aliases"("currency_id", "term");

-- AddForeignKey
ALTER TABLE "search_aliases" ADD CONSTRAINT "search_aliases_category_id_fkey" FOREIGN KEY ("category_id") REFERENCES "categories"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "search_aliases" ADD CONSTRAINT "search_aliases_country_id_fkey" FOREIGN KEY ("country_id") REFERENCES "countries"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "search_aliases" ADD CONSTRAINT "search_aliases_currency_id_fkey" FOREIGN KEY ("currency_id") REFERENCES "currencies"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- An alias names exactly one thing; a blank one would match every search.
ALTER TABLE "search_aliases" ADD CONSTRAINT "search_aliases_one_target_check"
  CHECK (num_nonnulls("category_id", "country_id", "currency_id") = 1);
ALTER TABLE "search_aliases" ADD CONSTRAINT "search_aliases_term_check" CHECK (btrim("term") <> '');

-- Every API instance keeps a search index of the catalogue in memory and learns of changes on the
-- channel "catalogue_changed", however they are made (the store, a migration, psql). Statement-level
-- triggers send one notification per statement: a payload of changed product ids, or "*" (reload
-- everything) when the ids would not fit in a notification (8000 bytes) or reference data changed.
-- The notification is delivered when the transaction commits, and not at all if it rolls back.
CREATE FUNCTION "notify_products_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids text;
BEGIN
  IF TG_OP = 'DELETE' THEN
    SELECT string_agg(DISTINCT "id"::text, ',') INTO ids FROM (SELECT "id" FROM old_rows LIMIT 700) changed;
    IF (SELECT count(*) FROM old_rows) > 700 THEN ids := '*'; END IF;
  ELSE
    SELECT string_agg(DISTINCT "id"::text, ',') INTO ids FROM (SELECT "id" FROM new_rows LIMIT 700) changed;
    IF (SELECT count(*) FROM new_rows) > 700 THEN ids := '*'; END IF;
  END IF;
  IF ids IS NOT NULL THEN
    PERFORM pg_notify('catalogue_changed', ids);
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "products_notify_insert" AFTER INSERT ON "products"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "notify_products_changed"();
CREATE TRIGGER "products_notify_update" AFTER UPDATE ON "products"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "notify_products_changed"();
CREATE TRIGGER "products_notify_delete" AFTER DELETE ON "products"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "notify_products_changed"();

CREATE FUNCTION "notify_catalogue_reload"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('catalogue_changed', '*');
  RETURN NULL;
END;
$$;

CREATE TRIGGER "categories_notify" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "categories"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_catalogue_reload"();
CREATE TRIGGER "countries_notify" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "countries"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_catalogue_reload"();
CREATE TRIGGER "currencies_notify" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "currencies"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_catalogue_reload"();
CREATE TRIGGER "search_aliases_notify" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "search_aliases"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_catalogue_reload"();
CREATE TRIGGER "products_notify_truncate" AFTER TRUNCATE ON "products"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_catalogue_reload"();
