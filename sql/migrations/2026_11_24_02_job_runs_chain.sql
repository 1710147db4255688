-- Work units: a per-chain job (blocks, campaigns, roots, claims, tokens) runs per chain under its
-- own lock, so one slow chain never holds back the others and several schedulers share the chains.
-- A unit's run records its chain; a run over every chain (a whole-job run: tests, `jobs:run`, the
-- API's "Run now") and the runs of chain-less jobs keep NULL.
ALTER TABLE job_runs ADD COLUMN chain_id integer;
CREATE INDEX job_runs_job_chain_started_idx ON job_runs (job, chain_id, started_at DESC);
-- Which scheduler process ran it (host:pid), so operators see how processes share the units.
ALTER TABLE job_runs ADD COLUMN runner text;
