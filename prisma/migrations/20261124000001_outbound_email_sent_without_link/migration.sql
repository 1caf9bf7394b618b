-- A sent or given-up email no longer keeps its link: the token in it works until it expires, and
-- the recipient's copy is the only one it needs. Rows written before this rule drop theirs now.
UPDATE "outbound_emails" SET "data" = "data" - 'link' WHERE "status" <> 'PENDING';
