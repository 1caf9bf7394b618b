-- An order's history: every state change, payment, refund, code claim and operator action is a row
-- here, written in the transaction of the change. Status changes are written by a trigger (so no
-- change of an order's status can go unrecorded, whoever makes it), with who made it from the
-- order's changed_by, which the one function that changes an order's status sets with the status;
-- the other events are written by the code that does them.

ALTER TABLE "orders" ADD COLUMN "changed_by" VARCHAR(64) NOT NULL DEFAULT 'customer';

CREATE TABLE "order_events" (
    "id" BIGSERIAL NOT NULL,
    "order_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actor" VARCHAR(64) NOT NULL,
    "kind" VARCHAR(32) NOT NULL,
    "from_status" "order_status",
    "to_status" "order_status",
    "amount_minor" BIGINT,
    "payment_id" UUID,
    "detail" JSONB,

    CONSTRAINT "order_events_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "order_events_order_id_id_idx" ON "order_events"("order_id", "id");
ALTER TABLE "order_events" ADD CONSTRAINT "order_events_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE FUNCTION "record_order_status"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "order_events" ("order_id", "actor", "kind", "to_status", "amount_minor")
    VALUES (NEW."id", NEW."changed_by", 'created', NEW."status", NEW."total_minor");
  ELSIF NEW."status" IS DISTINCT FROM OLD."status" OR NEW."refunded_minor" <> OLD."refunded_minor" THEN
    INSERT INTO "order_events" ("order_id", "actor", "kind", "from_status", "to_status", "amount_minor", "payment_id")
    VALUES (
      NEW."id", NEW."changed_by", 'status', OLD."status", NEW."status",
      CASE
        WHEN NEW."refunded_minor" <> OLD."refunded_minor" THEN NEW."refunded_minor" - OLD."refunded_minor"
        WHEN NEW."status" = 'PAID' THEN NEW."total_minor"
      END,
      CASE WHEN NEW."status" = 'PAID' THEN NEW."payment_id" END
    );
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "orders_record_status" AFTER INSERT OR UPDATE OF "status", "refunded_minor" ON "orders"
  FOR EACH ROW EXECUTE FUNCTION "record_order_status"();

-- The orders there already start their history with what is known of them.
INSERT INTO "order_events" ("order_id", "created_at", "actor", "kind", "to_status", "amount_minor")
SELECT "id", "created_at", 'customer', 'created', 'CREATED', "total_minor" FROM "orders";
INSERT INTO "order_events" ("order_id", "created_at", "actor", "kind", "from_status", "to_status", "amount_minor", "detail")
SELECT "id", "updated_at", 'system', 'status', NULL, "status", NULLIF("refunded_minor", 0),
       '{"note": "status when the history began"}'::jsonb
FROM "orders" WHERE "status" <> 'CREATED';
