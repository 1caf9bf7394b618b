-- The operator console: staff with roles and two-factor sign-in, the audit log of what they do, code
-- batches, customers that can be blocked and products with a low-stock threshold.
--
-- Staff are not customers: their own table, their own tokens. The TOTP secret is encrypted with the
-- key the gift-card codes are (AES-256-GCM); recovery codes are kept as hashes and used once.

CREATE TYPE "staff_role" AS ENUM ('OWNER', 'MANAGER', 'SUPPORT');

CREATE TABLE "staff" (
    "id" UUID NOT NULL,
    "email" VARCHAR(128) NOT NULL,
    "password_hash" TEXT NOT NULL,
    "role" "staff_role" NOT NULL,
    "totp_secret" BYTEA NOT NULL,
    "totp_confirmed_at" TIMESTAMPTZ(3),
    -- The last TOTP step accepted: a code is taken once, never replayed within its window.
    "totp_last_step" BIGINT,
    -- Raised by a role change, a two-factor reset and disabling: tokens carrying an older one stop working.
    "token_version" INTEGER NOT NULL DEFAULT 0,
    "disabled_at" TIMESTAMPTZ(3),
    "last_sign_in_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "staff_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "staff_email_lower" CHECK ("email" = lower("email"))
);

CREATE UNIQUE INDEX "staff_email_key" ON "staff"("email");

CREATE TABLE "staff_recovery_codes" (
    "id" BIGSERIAL NOT NULL,
    "staff_id" UUID NOT NULL,
    "code_hash" CHAR(64) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "staff_recovery_codes_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "staff_recovery_codes_staff_id_fkey" FOREIGN KEY ("staff_id") REFERENCES "staff"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE UNIQUE INDEX "staff_recovery_codes_staff_id_code_hash_key" ON "staff_recovery_codes"("staff_id", "code_hash");

-- Every staff action, written in the transaction of the change. Append-only: nothing updates or
-- deletes a row (a trigger refuses it).
CREATE TABLE "audit_log" (
    "id" BIGSERIAL NOT NULL,
    "staff_id" UUID,
    "role" VARCHAR(16) NOT NULL,
    "action" VARCHAR(48) NOT NULL,
    "target_type" VARCHAR(16) NOT NULL,
    "target_id" VARCHAR(64),
    "before" JSONB,
    "after" JSONB,
    "request_id" VARCHAR(64),
    "ip" VARCHAR(64),
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_log_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "audit_log_staff_id_fkey" FOREIGN KEY ("staff_id") REFERENCES "staff"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

CREATE INDEX "audit_log_at_idx" ON "audit_log"("at" DESC);
CREATE INDEX "audit_log_staff_id_id_idx" ON "audit_log"("staff_id", "id");
CREATE INDEX "audit_log_target_type_target_id_id_idx" ON "audit_log"("target_type", "target_id", "id");
CREATE INDEX "audit_log_action_id_idx" ON "audit_log"("action", "id");

CREATE FUNCTION "audit_log_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only';
END;
$$;

CREATE TRIGGER "audit_log_append_only" BEFORE UPDATE OR DELETE ON "audit_log"
  FOR EACH ROW EXECUTE FUNCTION "audit_log_append_only"();

-- A code import: which product, who, when; its codes point at it.
CREATE TABLE "code_batches" (
    "id" SERIAL NOT NULL,
    "product_id" INTEGER NOT NULL,
    "label" VARCHAR(100),
    "created_by" VARCHAR(128),
    "withdrawn" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "code_batches_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "code_batches_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

CREATE INDEX "code_batches_product_id_idx" ON "code_batches"("product_id");

ALTER TABLE "product_codes" ADD COLUMN "batch_id" INTEGER;
ALTER TABLE "product_codes" ADD CONSTRAINT "product_codes_batch_id_fkey" FOREIGN KEY ("batch_id") REFERENCES "code_batches"("id") ON DELETE SET NULL ON UPDATE CASCADE;
CREATE INDEX "product_codes_batch_id_status_idx" ON "product_codes"("batch_id", "status");

-- A blocked customer cannot sign in, and their sessions end when they are blocked.
ALTER TABLE "users" ADD COLUMN "blocked_at" TIMESTAMPTZ(3);

-- The dashboard's low stock: a product whose available codes fall to this or below.
ALTER TABLE "products" ADD COLUMN "low_stock_threshold" INTEGER NOT NULL DEFAULT 5;
