-- Provider events that keep failing stop being retried: after so many attempts an event is set aside
-- as dead (dead_at) for an operator, who may retry it. Until then each failure waits longer before
-- the next attempt (next_attempt_at), and the payment sweep hands on events in the order they are
-- due, so a few that always fail never keep newer ones from their turn.

ALTER TABLE "payment_events" ADD COLUMN "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;
ALTER TABLE "payment_events" ADD COLUMN "dead_at" TIMESTAMPTZ(3);

DROP INDEX "payment_events_processed_at_idx";
CREATE INDEX "payment_events_processed_at_dead_at_next_attempt_at_idx" ON "payment_events"("processed_at", "dead_at", "next_attempt_at");

-- Beyond schema.prisma: an event applied is never also dead.
ALTER TABLE "payment_events" ADD CONSTRAINT "payment_events_dead_check" CHECK ("dead_at" IS NULL OR "processed_at" IS NULL);
