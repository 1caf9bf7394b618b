-- A run sending an email claims the row until this time instead of holding a row lock (and a
-- transaction) open across the SMTP conversation.
ALTER TABLE "outbound_emails" ADD COLUMN "locked_until" TIMESTAMPTZ(3);
