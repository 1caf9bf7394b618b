-- Reviews their authors may change, and accounts their customers may delete.
--
-- A customer may delete their account: the row stays, anonymised, because orders and the ledger
-- name it, and deleted_at says it is gone. account_events records that it happened, with no
-- personal data, for an auditor.

ALTER TABLE "users" ADD COLUMN "deleted_at" TIMESTAMPTZ(3);

CREATE TABLE "account_events" (
    "id" BIGSERIAL NOT NULL,
    "user_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actor" VARCHAR(64) NOT NULL,
    "kind" VARCHAR(32) NOT NULL,
    "detail" JSONB,

    CONSTRAINT "account_events_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "account_events_user_id_id_idx" ON "account_events"("user_id", "id");

-- Authors may change their reviews; the page says when one was changed.
ALTER TABLE "reviews" ADD COLUMN "edited_at" TIMESTAMPTZ(3);
