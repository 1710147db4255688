-- Up Migration
-- Claimed run requests without an outcome: each claim first ends those whose runner died (their lease, an advisory
-- lock, is gone: domain/jobs/runRequests.ts closeAbandonedRequests).
CREATE INDEX job_run_requests_claimed_idx ON job_run_requests (id) WHERE claimed_at IS NOT NULL AND finished_at IS NULL;
