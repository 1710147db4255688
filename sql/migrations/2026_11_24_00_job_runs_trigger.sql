-- What started each run: its schedule, an operator (POST /v4/internal/jobs/{name}/run, the
-- operations page's "Run now"), the command line (jobs:run) or a backfill. Runs recorded before
-- this migration keep NULL (not known).
ALTER TABLE job_runs ADD COLUMN trigger text CHECK (trigger IN ('schedule', 'manual', 'cli', 'backfill'));
ALTER TABLE job_runs ALTER COLUMN trigger SET DEFAULT 'schedule';
