-- Provider payments: the widget as its own method, a provider's full refund as its own status, the
-- provider's version of each payment last applied, when the provider was last asked about it, and
-- payment events that say what they are about and what became of them.

-- New values are only added here, never used in this migration, so ADD VALUE inside the migration's
-- transaction is enough (the orders migration recreated its type because its checks used the values).
ALTER TYPE "payment_method" ADD VALUE 'WIDGET';
ALTER TYPE "payment_status" ADD VALUE 'REFUNDED';

-- AlterTable
ALTER TABLE "payments" ADD COLUMN "provider_version" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "payments" ADD COLUMN "checked_at" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "payment_events" ADD COLUMN "source" VARCHAR(16) NOT NULL DEFAULT 'callback';
ALTER TABLE "payment_events" ADD COLUMN "provider_payment_id" VARCHAR(128);
ALTER TABLE "payment_events" ADD COLUMN "order_id" UUID;
ALTER TABLE "payment_events" ADD COLUMN "version" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "payment_events" ADD COLUMN "rejection" VARCHAR(32);
ALTER TABLE "payment_events" ADD COLUMN "outcome" VARCHAR(32);

-- CreateIndex
CREATE INDEX "payments_status_created_at_idx" ON "payments"("status", "created_at");

-- CreateIndex
CREATE INDEX "payment_events_provider_provider_payment_id_idx" ON "payment_events"("provider", "provider_payment_id");

-- Beyond schema.prisma: a payment's provider version only grows from zero, and a card is kept as its
-- last four digits, nothing more.
ALTER TABLE "payments" ADD CONSTRAINT "payments_provider_version_check" CHECK ("provider_version" >= 0);
ALTER TABLE "payments" ADD CONSTRAINT "payments_card_last4_check" CHECK ("card_last4" IS NULL OR "card_last4" ~ '^[0-9]{4}$');
-- An event set aside (wrong amount, currency or order) is never applied: it is done with on arrival.
ALTER TABLE "payment_events" ADD CONSTRAINT "payment_events_rejection_check" CHECK ("rejection" IS NULL OR "processed_at" IS NOT NULL);
