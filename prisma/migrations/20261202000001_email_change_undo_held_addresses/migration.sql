-- While an undo link may still put an address back, no other account may take that address:
-- registration and changes of address look it up here, by the address the link would restore.
-- Beyond schema.prisma, which cannot say an index on an expression.
CREATE INDEX "email_tokens_undo_address_idx" ON "email_tokens" (("payload" ->> 'email'))
  WHERE "purpose" = 'EMAIL_CHANGE_UNDO' AND "used_at" IS NULL;
