-- Up Migration
-- The back office's "run now" (POST /v4/internal/jobs/{name}/run) as a signal the jobs process acts on (issue 47):
-- the API inserts a request, a job runner (the scheduler) claims it (FOR UPDATE SKIP LOCKED: one runner each), runs
-- the job and writes the outcome; the API waits for it a bounded time. An insert wakes the runners (LISTEN
-- job_run_requests), one notification per statement at commit. `params` narrows a run: {"opportunityIds": [...]} on
-- a metrics request recomputes those opportunities and publishes them (a privacy change, PATCH /v4/campaigns/{id}/privacy).
CREATE TABLE job_run_requests (
  id bigserial PRIMARY KEY,
  job text NOT NULL,
  trigger text NOT NULL DEFAULT 'manual',
  params jsonb,
  requested_at timestamptz NOT NULL DEFAULT now(),
  claimed_at timestamptz,
  claimed_by text,
  finished_at timestamptz,
  outcome jsonb
);
CREATE INDEX job_run_requests_unclaimed_idx ON job_run_requests (id) WHERE claimed_at IS NULL;
CREATE INDEX job_run_requests_requested_at_idx ON job_run_requests (requested_at);
CREATE FUNCTION notify_job_run_requests() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('job_run_requests', '');
  RETURN NULL;
END;
$$;
CREATE TRIGGER job_run_requests_notify AFTER INSERT ON job_run_requests FOR EACH STATEMENT EXECUTE FUNCTION notify_job_run_requests();
