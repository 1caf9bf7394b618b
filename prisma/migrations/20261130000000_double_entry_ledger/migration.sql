-- The ledger becomes double-entry, and money is kept in 64-bit minor units.
--
-- Every movement of money is one transfer (ledger_transfers, under its idempotency key) with two
-- legs (ledger_entries): the account it leaves and the account it reaches, -amount and +amount. The
-- legs of every transfer, and so of the whole ledger, add up to zero. The accounts: each customer's
-- balance and receivable, each provider's clearing account (money taken through it), the store's
-- revenue, refunds (goods paid back), suspense (money taken that bought nothing, on its way back to
-- its card) and adjustments (an operator's correction). users.balance_minor caches the customer's
-- balance account and users.owed_minor what the customer owes (minus their receivable account).

CREATE TYPE "ledger_account" AS ENUM (
  'CUSTOMER_BALANCE', 'CUSTOMER_RECEIVABLE', 'PROVIDER_CLEARING', 'REVENUE', 'REFUNDS', 'SUSPENSE', 'ADJUSTMENTS'
);
CREATE TYPE "ledger_transfer_kind" AS ENUM (
  'TOPUP', 'PURCHASE', 'SPEND', 'REFUND', 'UNAPPLIED', 'PROVIDER_REFUND', 'CHARGEBACK', 'SETTLEMENT', 'ADJUSTMENT'
);

-- 64-bit money: a balance of many top-ups must never overflow.
ALTER TABLE "users" ALTER COLUMN "balance_minor" TYPE BIGINT;
ALTER TABLE "users" ADD COLUMN "owed_minor" BIGINT NOT NULL DEFAULT 0;
ALTER TABLE "orders" ALTER COLUMN "subtotal_minor" TYPE BIGINT;
ALTER TABLE "orders" ALTER COLUMN "discount_minor" TYPE BIGINT;
ALTER TABLE "orders" ALTER COLUMN "total_minor" TYPE BIGINT;
ALTER TABLE "orders" ALTER COLUMN "refunded_minor" TYPE BIGINT;
ALTER TABLE "payments" ALTER COLUMN "amount_minor" TYPE BIGINT;
-- What of the payment the provider gave back (refunds) and the card's bank took back (chargebacks),
-- as far as the store has reversed it: the next event's totals minus these are what is new.
ALTER TABLE "payments" ADD COLUMN "refunded_minor" BIGINT NOT NULL DEFAULT 0;
ALTER TABLE "payments" ADD COLUMN "charged_back_minor" BIGINT NOT NULL DEFAULT 0;

CREATE TABLE "ledger_transfers" (
    "id" UUID NOT NULL,
    "idempotency_key" VARCHAR(160) NOT NULL,
    "kind" "ledger_transfer_kind" NOT NULL,
    "amount_minor" BIGINT NOT NULL,
    "order_id" UUID,
    "payment_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ledger_transfers_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "ledger_transfers_idempotency_key_key" ON "ledger_transfers"("idempotency_key");
CREATE INDEX "ledger_transfers_order_id_idx" ON "ledger_transfers"("order_id");
CREATE INDEX "ledger_transfers_payment_id_idx" ON "ledger_transfers"("payment_id");
ALTER TABLE "ledger_transfers" ADD CONSTRAINT "ledger_transfers_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "ledger_transfers" ADD CONSTRAINT "ledger_transfers_payment_id_fkey" FOREIGN KEY ("payment_id") REFERENCES "payments"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Each entry so far becomes a transfer of its own (the same id), between the customer's balance and
-- the account it came from or went to.
INSERT INTO "ledger_transfers" ("id", "idempotency_key", "kind", "amount_minor", "order_id", "payment_id", "created_at")
SELECT e."id", e."idempotency_key",
       CASE e."kind"
         WHEN 'TOPUP' THEN 'TOPUP'
         WHEN 'SPEND' THEN 'SPEND'
         WHEN 'REFUND' THEN 'REFUND'
         ELSE 'ADJUSTMENT'
       END::"ledger_transfer_kind",
       abs(e."amount_minor"), e."order_id",
       -- The payment the movement follows from: a second payment named by its key, else the order's.
       CASE WHEN e."idempotency_key" ~ '^refund:[^:]+:payment:[0-9a-f-]{36}$'
            THEN (SELECT p."id" FROM "payments" p WHERE p."id" = substring(e."idempotency_key" from '([0-9a-f-]{36})$')::uuid)
            ELSE (SELECT o."payment_id" FROM "orders" o WHERE o."id" = e."order_id")
       END,
       e."created_at"
FROM "ledger_entries" e;

-- The entries become the customer's legs.
ALTER TABLE "ledger_entries" DROP CONSTRAINT "ledger_entries_kind_sign_check";
ALTER TABLE "ledger_entries" DROP CONSTRAINT "ledger_entries_amount_minor_check";
ALTER TABLE "ledger_entries" DROP CONSTRAINT "ledger_entries_user_id_fkey";
ALTER TABLE "ledger_entries" DROP CONSTRAINT "ledger_entries_order_id_fkey";
DROP INDEX "ledger_entries_idempotency_key_key";
DROP INDEX "ledger_entries_user_id_created_at_idx";
ALTER TABLE "ledger_entries" ADD COLUMN "transfer_id" UUID;
ALTER TABLE "ledger_entries" ADD COLUMN "account" "ledger_account" NOT NULL DEFAULT 'CUSTOMER_BALANCE';
ALTER TABLE "ledger_entries" ADD COLUMN "provider" VARCHAR(32);
ALTER TABLE "ledger_entries" ALTER COLUMN "amount_minor" TYPE BIGINT;
ALTER TABLE "ledger_entries" ALTER COLUMN "user_id" DROP NOT NULL;
UPDATE "ledger_entries" SET "transfer_id" = "id";

-- The other leg of each: where a top-up or a second payment came from (the provider of the payment
-- behind it), where a spend went (revenue), what paid a refund (refunds), and an adjustment's other side.
INSERT INTO "ledger_entries" ("id", "transfer_id", "account", "user_id", "provider", "order_id", "kind", "amount_minor", "idempotency_key", "created_at")
SELECT gen_random_uuid(), t."id",
       CASE
         WHEN t."kind" = 'TOPUP' THEN 'PROVIDER_CLEARING'
         WHEN t."kind" = 'SPEND' THEN 'REVENUE'
         WHEN t."kind" = 'REFUND' AND t."idempotency_key" ~ ':payment:' THEN 'PROVIDER_CLEARING'
         WHEN t."kind" = 'REFUND' THEN 'REFUNDS'
         ELSE 'ADJUSTMENTS'
       END::"ledger_account",
       NULL,
       CASE WHEN t."kind" = 'TOPUP' OR (t."kind" = 'REFUND' AND t."idempotency_key" ~ ':payment:')
            THEN COALESCE((SELECT p."provider" FROM "payments" p WHERE p."id" = t."payment_id"), 'sandbox')
       END,
       e."order_id", e."kind", -e."amount_minor", e."idempotency_key" || ':other', e."created_at"
FROM "ledger_transfers" t JOIN "ledger_entries" e ON e."id" = t."id";

-- Purchases paid through a provider took money that the old ledger did not record: clearing -> revenue.
INSERT INTO "ledger_transfers" ("id", "idempotency_key", "kind", "amount_minor", "order_id", "payment_id", "created_at")
SELECT gen_random_uuid(), 'purchase:' || p."id", 'PURCHASE', o."total_minor", o."id", p."id", o."paid_at"
FROM "orders" o JOIN "payments" p ON p."id" = o."payment_id"
WHERE o."type" = 'PURCHASE' AND p."method" <> 'BALANCE' AND o."paid_at" IS NOT NULL AND o."total_minor" > 0;

-- Payments the provider refunded in full went back to their card: from refunds (a purchase's goods),
-- else from adjustments (the store kept a top-up's or a second payment's credit, which is now on record).
INSERT INTO "ledger_transfers" ("id", "idempotency_key", "kind", "amount_minor", "order_id", "payment_id", "created_at")
SELECT gen_random_uuid(), 'provider-refund:' || p."id" || ':' || p."amount_minor", 'PROVIDER_REFUND', p."amount_minor",
       p."order_id", p."id", p."updated_at"
FROM "payments" p
WHERE p."status" = 'REFUNDED' AND p."method" <> 'BALANCE';

INSERT INTO "ledger_entries" ("id", "transfer_id", "account", "user_id", "provider", "order_id", "kind", "amount_minor", "idempotency_key", "created_at")
SELECT gen_random_uuid(), t."id", leg."account"::"ledger_account", NULL, leg."provider", t."order_id", 'ADJUSTMENT',
       leg."amount", t."idempotency_key" || leg."side", t."created_at"
FROM "ledger_transfers" t
JOIN "payments" p ON p."id" = t."payment_id"
JOIN "orders" o ON o."id" = t."order_id"
CROSS JOIN LATERAL (VALUES
  (CASE t."kind" WHEN 'PURCHASE' THEN 'PROVIDER_CLEARING'
                 ELSE CASE WHEN o."type" = 'PURCHASE' AND o."payment_id" = p."id" THEN 'REFUNDS' ELSE 'ADJUSTMENTS' END
   END,
   CASE t."kind" WHEN 'PURCHASE' THEN p."provider" ELSE NULL END, -t."amount_minor", ':from'),
  (CASE t."kind" WHEN 'PURCHASE' THEN 'REVENUE' ELSE 'PROVIDER_CLEARING' END,
   CASE t."kind" WHEN 'PURCHASE' THEN NULL ELSE p."provider" END, t."amount_minor", ':to')
) AS leg("account", "provider", "amount", "side")
WHERE t."kind" IN ('PURCHASE', 'PROVIDER_REFUND');

UPDATE "payments" SET "refunded_minor" = "amount_minor" WHERE "status" = 'REFUNDED' AND "method" <> 'BALANCE';

ALTER TABLE "ledger_entries" DROP COLUMN "kind";
ALTER TABLE "ledger_entries" DROP COLUMN "idempotency_key";
ALTER TABLE "ledger_entries" DROP COLUMN "order_id";
ALTER TABLE "ledger_entries" ALTER COLUMN "transfer_id" SET NOT NULL;
ALTER TABLE "ledger_entries" ALTER COLUMN "account" DROP DEFAULT;
DROP TYPE "ledger_kind";

CREATE INDEX "ledger_entries_transfer_id_idx" ON "ledger_entries"("transfer_id");
CREATE INDEX "ledger_entries_user_id_created_at_idx" ON "ledger_entries"("user_id", "created_at" DESC);
CREATE INDEX "ledger_entries_account_provider_idx" ON "ledger_entries"("account", "provider");
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_transfer_id_fkey" FOREIGN KEY ("transfer_id") REFERENCES "ledger_transfers"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Beyond schema.prisma: the invariants of the books the database itself holds.
-- A transfer moves a positive amount; a leg is never zero.
ALTER TABLE "ledger_transfers" ADD CONSTRAINT "ledger_transfers_amount_minor_check" CHECK ("amount_minor" > 0);
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_amount_minor_check" CHECK ("amount_minor" <> 0);
-- A customer's account names its customer, a provider's its provider, the store's own neither.
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_account_owner_check" CHECK (
  CASE "account"
    WHEN 'CUSTOMER_BALANCE' THEN "user_id" IS NOT NULL AND "provider" IS NULL
    WHEN 'CUSTOMER_RECEIVABLE' THEN "user_id" IS NOT NULL AND "provider" IS NULL
    WHEN 'PROVIDER_CLEARING' THEN "user_id" IS NULL AND "provider" IS NOT NULL
    ELSE "user_id" IS NULL AND "provider" IS NULL
  END
);
-- What a customer owes is never negative; a balance never was (users_balance_minor_check).
ALTER TABLE "users" ADD CONSTRAINT "users_owed_minor_check" CHECK ("owed_minor" >= 0);
-- The store never reverses more of a payment than it took.
ALTER TABLE "payments" ADD CONSTRAINT "payments_reversed_minor_check" CHECK (
  "refunded_minor" >= 0 AND "charged_back_minor" >= 0 AND "refunded_minor" + "charged_back_minor" <= "amount_minor"
);
