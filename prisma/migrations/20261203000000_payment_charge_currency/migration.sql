-- What a payment is charged: the rail's currency (Pix BRL, SBP RUB, UPI INR), converted from the
-- order's BRL total at the operator's rate locked when the payment is opened. The order, the ledger
-- and `amount_minor` stay in BRL.
ALTER TABLE "payments" ADD COLUMN "charge_minor" BIGINT;
ALTER TABLE "payments" ADD COLUMN "charge_currency" VARCHAR(8);
ALTER TABLE "payments" ADD COLUMN "charge_rate" DECIMAL(14,6);
ALTER TABLE "payments" ADD COLUMN "charge_rate_set_at" TIMESTAMPTZ(3);
ALTER TABLE "payments" ADD COLUMN "charge_locked_at" TIMESTAMPTZ(3);

-- Beyond schema.prisma: the charge is all there or not at all, positive, at a rate above zero.
ALTER TABLE "payments" ADD CONSTRAINT "payments_charge_check" CHECK (
  ("charge_minor" IS NULL AND "charge_currency" IS NULL AND "charge_rate" IS NULL AND "charge_locked_at" IS NULL)
  OR ("charge_minor" > 0 AND "charge_currency" ~ '^[A-Z]{3}$' AND "charge_rate" > 0 AND "charge_locked_at" IS NOT NULL)
);
