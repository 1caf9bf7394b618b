-- Refunds the store asks of the provider, to a payment's own card or account: a second charge of an
-- order paid already, or an operator's refund. Each is a row first (in the transaction that decides
-- it, under its idempotency key), then a job that calls the provider with the row's id as the
-- provider's idempotency key; a row whose job was lost is handed on again by the payment sweep.

CREATE TYPE "provider_refund_status" AS ENUM ('PENDING', 'SUCCEEDED', 'FAILED');

CREATE TABLE "provider_refunds" (
    "id" UUID NOT NULL,
    "order_id" UUID NOT NULL,
    "payment_id" UUID NOT NULL,
    "amount_minor" BIGINT NOT NULL,
    "reason" VARCHAR(32) NOT NULL,
    "requested_by" VARCHAR(64) NOT NULL,
    "idempotency_key" VARCHAR(160) NOT NULL,
    "status" "provider_refund_status" NOT NULL DEFAULT 'PENDING',
    "provider_refund_id" VARCHAR(128),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "provider_refunds_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "provider_refunds_idempotency_key_key" ON "provider_refunds"("idempotency_key");
CREATE INDEX "provider_refunds_order_id_idx" ON "provider_refunds"("order_id");
CREATE INDEX "provider_refunds_payment_id_idx" ON "provider_refunds"("payment_id");
CREATE INDEX "provider_refunds_status_next_attempt_at_idx" ON "provider_refunds"("status", "next_attempt_at");

ALTER TABLE "provider_refunds" ADD CONSTRAINT "provider_refunds_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "provider_refunds" ADD CONSTRAINT "provider_refunds_payment_id_fkey" FOREIGN KEY ("payment_id") REFERENCES "payments"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Beyond schema.prisma: a refund gives back a positive amount, a finished one says when, and one the
-- provider took names the provider's refund.
ALTER TABLE "provider_refunds" ADD CONSTRAINT "provider_refunds_amount_minor_check" CHECK ("amount_minor" > 0);
ALTER TABLE "provider_refunds" ADD CONSTRAINT "provider_refunds_finished_check" CHECK (("status" = 'PENDING') = ("finished_at" IS NULL));
ALTER TABLE "provider_refunds" ADD CONSTRAINT "provider_refunds_succeeded_check" CHECK ("status" <> 'SUCCEEDED' OR "provider_refund_id" IS NOT NULL);
