-- Every API instance takes a session it checked a few seconds ago on trust (packages/core
-- accounts/sessions.ts). Whatever ends a session (a logout, a password or email change revoking
-- the others, an expiry cut short, a deleted account's cascade) names it here, so that every
-- instance forgets it at once, whichever instance or command wrote the change.
CREATE FUNCTION "notify_session_ended"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('session_ended', OLD."id"::text);
  RETURN NULL;
END;
$$;

CREATE TRIGGER "sessions_notify_ended" AFTER UPDATE OF "revoked_at", "expires_at", "user_id" OR DELETE ON "sessions"
  FOR EACH ROW EXECUTE FUNCTION "notify_session_ended"();

CREATE FUNCTION "notify_sessions_truncated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('session_ended', '*');
  RETURN NULL;
END;
$$;

CREATE TRIGGER "sessions_notify_truncated" AFTER TRUNCATE ON "sessions"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_sessions_truncated"();
