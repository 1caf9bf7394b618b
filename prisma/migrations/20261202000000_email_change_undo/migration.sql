-- A confirmed change of address mails the address it left a link that puts it back, signs the
-- account out everywhere and ends its password, for a week: the change itself no longer needs the
-- current password, so the old address is what stops a stolen session from keeping the account.
-- The value is only added here; the next migration's index names it, in a transaction of its own.

-- AlterEnum
ALTER TYPE "email_token_purpose" ADD VALUE 'EMAIL_CHANGE_UNDO';
