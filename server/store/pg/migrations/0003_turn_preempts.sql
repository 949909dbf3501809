ALTER TABLE "turns" ADD COLUMN "preempts" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- What the node holding a session must act on, when another node stores it: a queued turn asking to preempt, an
-- approval decided. The trigger wakes the holder (notify.ts, bdk_sessions) on commit and in the statement that stored
-- it: the hint costs no round trip. Nobody holding the session, nobody is told. The woken node reads the table.
CREATE FUNCTION bdk_notify_session() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM session_owners WHERE session_id = NEW.session_id AND expires_at > clock_timestamp()) THEN
    PERFORM pg_notify('bdk_sessions', NEW.session_id);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER turns_preempt_notify AFTER INSERT OR UPDATE OF preempts ON "turns"
  FOR EACH ROW WHEN (NEW.preempts AND NEW.status = 'queued') EXECUTE FUNCTION bdk_notify_session();--> statement-breakpoint
CREATE TRIGGER approvals_decided_notify AFTER UPDATE OF status ON "approvals"
  FOR EACH ROW WHEN (OLD.status = 'pending' AND NEW.status <> 'pending') EXECUTE FUNCTION bdk_notify_session();
