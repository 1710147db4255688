-- A committed write to the search outbox wakes the projector (the scheduler LISTENs on
-- search_outbox) instead of waiting for the publish job's next tick. One notification per
-- statement; PostgreSQL delivers it at commit and folds duplicates of one transaction.
CREATE FUNCTION notify_search_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('search_outbox', '');
  RETURN NULL;
END;
$$;
CREATE TRIGGER search_outbox_notify AFTER INSERT ON search_outbox FOR EACH STATEMENT EXECUTE FUNCTION notify_search_outbox();
