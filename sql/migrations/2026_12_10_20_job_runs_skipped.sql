-- Up Migration
-- A run of a job with nothing configured to do (benchmark-rate without BENCHMARK_RATE_URL, prices
-- without any price source, …) is recorded as 'skipped' with the reason, not as a success that did
-- nothing (issue #44): `jobs:run` prints it, /v4/internal/jobs, /v4/health and /ops show it.
ALTER TABLE job_runs DROP CONSTRAINT job_runs_status_check;
ALTER TABLE job_runs ADD CONSTRAINT job_runs_status_check
  CHECK (status IN ('running', 'success', 'failed', 'skipped')) NOT VALID;
ALTER TABLE job_runs VALIDATE CONSTRAINT job_runs_status_check;
ALTER TABLE job_runs ADD COLUMN skip_reason text;
