ALTER TABLE "turns" ADD COLUMN "preempts" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- A queued turn asking to preempt wakes the node holding the session (notify.ts, bdk_sessions), on commit and in the
-- statement that stored it: the hint costs no round trip. Nobody holding it, nobody is told. The woken node reads the
-- flag from the table.
CREATE FUNCTION bdk_notify_preempt() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM session_owners WHERE session_id = NEW.session_id AND expires_at > clock_timestamp()) THEN
    PERFORM pg_notify('bdk_sessions', NEW.session_id);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER turns_preempt_notify AFTER INSERT OR UPDATE OF preempts ON "turns"
  FOR EACH ROW WHEN (NEW.preempts AND NEW.status = 'queued') EXECUTE FUNCTION bdk_notify_preempt();
