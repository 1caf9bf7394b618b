-- "Tell me when it is back" is written to only once its address is proven: a guest follows the link
-- of a confirmation email (its token stored hashed, single-use, expiring); a signed-in customer's own
-- verified address needs none.

-- AlterTable
ALTER TABLE "stock_notifications" ADD COLUMN "confirmed_at" TIMESTAMPTZ(3),
ADD COLUMN "confirm_token_hash" CHAR(64),
ADD COLUMN "confirm_expires_at" TIMESTAMPTZ(3);

-- The requests made before stand where an account has verified the address; nobody confirmed the
-- others, so they go (whoever made them may ask again).
UPDATE "stock_notifications" s SET "confirmed_at" = s."created_at"
FROM "users" u WHERE u."email" = s."email" AND u."email_verified_at" IS NOT NULL;
DELETE FROM "stock_notifications" WHERE "confirmed_at" IS NULL;

-- CreateIndex
CREATE UNIQUE INDEX "stock_notifications_confirm_token_hash_key" ON "stock_notifications"("confirm_token_hash");

-- CreateIndex
CREATE INDEX "stock_notifications_confirm_expires_at_idx" ON "stock_notifications"("confirm_expires_at");

-- Beyond schema.prisma: a pending request has a link to be confirmed by.
ALTER TABLE "stock_notifications" ADD CONSTRAINT "stock_notifications_pending_check"
  CHECK ("confirmed_at" IS NOT NULL OR ("confirm_token_hash" IS NOT NULL AND "confirm_expires_at" IS NOT NULL));
