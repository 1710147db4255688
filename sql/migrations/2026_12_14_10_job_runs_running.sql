-- Up Migration
-- The runs still marked running: every job run closes those whose process died (jobs/deadRuns.ts), whatever
-- their job, so the sweep reads this small partial index instead of the whole run history.
CREATE INDEX job_runs_running_idx ON job_runs (job) WHERE status = 'running';
