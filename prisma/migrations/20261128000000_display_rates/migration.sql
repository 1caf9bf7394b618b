-- Prices shown in the shopper's currency: the operator's rates, one a currency, in BRL per unit.
-- Nothing that moves money reads them; they only turn a BRL price into an approximate one to show.

-- CreateTable
CREATE TABLE "display_rates" (
    "currency" CHAR(3) NOT NULL,
    "brl_per_unit" DECIMAL(14,6) NOT NULL,
    "set_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "set_by" VARCHAR(64) NOT NULL,

    CONSTRAINT "display_rates_pkey" PRIMARY KEY ("currency")
);

-- Beyond schema.prisma: an ISO 4217 code other than the store's own, and a rate above zero.
ALTER TABLE "display_rates" ADD CONSTRAINT "display_rates_currency_check"
  CHECK ("currency" ~ '^[A-Z]{3}$' AND "currency" <> 'BRL');
ALTER TABLE "display_rates" ADD CONSTRAINT "display_rates_brl_per_unit_check" CHECK ("brl_per_unit" > 0);

-- Every API instance caches the rates; a change tells them all to read them again.
CREATE FUNCTION "notify_display_rates_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('display_rates_changed', '*');
  RETURN NULL;
END;
$$;

CREATE TRIGGER "display_rates_notify" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "display_rates"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_display_rates_changed"();
