-- Orders that expire, refunds to the balance, the payment that paid an order, and a record of every
-- code shown to its owner.

-- An unpaid order ends EXPIRED when its time runs out (distinct from CANCELLED, which someone chose),
-- and REFUNDED when everything it paid went back to the balance. The type is recreated rather than
-- extended with ADD VALUE: a value added in a transaction cannot be used by the checks below in the
-- same transaction.
ALTER TYPE "order_status" RENAME TO "order_status_old";
CREATE TYPE "order_status" AS ENUM ('CREATED', 'PENDING', 'PAID', 'FULFILLED', 'PARTIALLY_REFUNDED', 'REFUNDED', 'FAILED', 'CANCELLED', 'EXPIRED');
ALTER TABLE "orders" ALTER COLUMN "status" DROP DEFAULT;
ALTER TABLE "orders" ALTER COLUMN "status" TYPE "order_status" USING ("status"::text::"order_status");
ALTER TABLE "orders" ALTER COLUMN "status" SET DEFAULT 'CREATED';
DROP TYPE "order_status_old";

-- AlterTable
ALTER TABLE "orders" ADD COLUMN "expires_at" TIMESTAMPTZ(3);
ALTER TABLE "orders" ADD COLUMN "refunded_minor" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "orders" ADD COLUMN "payment_id" UUID;

-- AlterTable
ALTER TABLE "order_lines" ADD COLUMN "discount_minor" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "code_reveals" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "code_id" UUID NOT NULL,
    "ip" VARCHAR(64),
    "route" VARCHAR(64) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "code_reveals_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "orders_payment_id_key" ON "orders"("payment_id");

-- CreateIndex
CREATE INDEX "orders_status_expires_at_idx" ON "orders"("status", "expires_at");

-- CreateIndex
CREATE INDEX "code_reveals_code_id_idx" ON "code_reveals"("code_id");

-- CreateIndex
CREATE INDEX "code_reveals_user_id_created_at_idx" ON "code_reveals"("user_id", "created_at" DESC);

-- AddForeignKey
ALTER TABLE "orders" ADD CONSTRAINT "orders_payment_id_fkey" FOREIGN KEY ("payment_id") REFERENCES "payments"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "code_reveals" ADD CONSTRAINT "code_reveals_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "code_reveals" ADD CONSTRAINT "code_reveals_code_id_fkey" FOREIGN KEY ("code_id") REFERENCES "product_codes"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Beyond schema.prisma: the invariants of money the database itself holds.
-- A discount never exceeds what it is taken off, so no total is negative.
ALTER TABLE "orders" ADD CONSTRAINT "orders_discount_minor_check" CHECK ("discount_minor" <= "subtotal_minor");
-- No order gives back more than it took.
ALTER TABLE "orders" ADD CONSTRAINT "orders_refunded_minor_check" CHECK ("refunded_minor" >= 0 AND "refunded_minor" <= "total_minor");
-- An order is paid exactly when it reached a paid status, and was paid by a payment then.
ALTER TABLE "orders" ADD CONSTRAINT "orders_paid_check" CHECK (("status" IN ('PAID', 'FULFILLED', 'PARTIALLY_REFUNDED', 'REFUNDED')) = ("paid_at" IS NOT NULL));
-- A top-up buys nothing, so no promo code applies to it.
ALTER TABLE "orders" ADD CONSTRAINT "orders_balance_promo_check" CHECK ("type" <> 'BALANCE' OR ("promo_code_id" IS NULL AND "discount_minor" = 0));
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_discount_minor_check" CHECK ("discount_minor" >= 0 AND "discount_minor" <= "unit_price_minor" * "quantity");
-- Credits are positive and debits negative by kind; only an operator's adjustment goes either way.
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_kind_sign_check" CHECK (
  ("kind" IN ('TOPUP', 'REFUND') AND "amount_minor" > 0)
  OR ("kind" = 'SPEND' AND "amount_minor" < 0)
  OR "kind" = 'ADJUSTMENT'
);
