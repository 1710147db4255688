-- Up Migration
-- Curation of opportunities by the back office (PATCH /v4/opportunities/{id}, …/tags): free tags
-- and the incentive programs an opportunity belongs to, projected into its search document
-- (filters `tags` and `programSlugs` of GET /v4/opportunities).
ALTER TABLE opportunities
  ADD COLUMN tags text[] NOT NULL DEFAULT '{}',
  ADD COLUMN program_slugs text[] NOT NULL DEFAULT '{}';
