-- Listings show each product's rating (the average of its reviews and how many), answered from the
-- search index every API instance keeps in memory. A review posted, changed or deleted (also by a
-- deleted account's cascade) changes its product's rating, so the reviews' statements notify the
-- products they touched on "catalogue_changed", as changes to the products themselves do: a payload
-- of product ids, or "*" (reload everything) when they would not fit in a notification.
CREATE FUNCTION "notify_reviews_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids text;
  many boolean;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT string_agg("product_id"::text, ','), count(*) > 700 INTO ids, many
    FROM (SELECT DISTINCT "product_id" FROM new_rows LIMIT 701) changed;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT string_agg("product_id"::text, ','), count(*) > 700 INTO ids, many
    FROM (SELECT DISTINCT "product_id" FROM old_rows LIMIT 701) changed;
  ELSE
    SELECT string_agg("product_id"::text, ','), count(*) > 700 INTO ids, many
    FROM (SELECT "product_id" FROM old_rows UNION SELECT "product_id" FROM new_rows LIMIT 701) changed;
  END IF;
  IF many THEN ids := '*'; END IF;
  IF ids IS NOT NULL THEN
    PERFORM pg_notify('catalogue_changed', ids);
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "reviews_notify_insert" AFTER INSERT ON "reviews"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "notify_reviews_changed"();
CREATE TRIGGER "reviews_notify_update" AFTER UPDATE ON "reviews"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_reviews_changed"();
CREATE TRIGGER "reviews_notify_delete" AFTER DELETE ON "reviews"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "notify_reviews_changed"();
CREATE TRIGGER "reviews_notify_truncate" AFTER TRUNCATE ON "reviews"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_catalogue_reload"();
