-- Up Migration
-- Incentive programs (issue #46: GET /v4/programs, back office POST / PATCH): a named group of opportunities, e.g. a
-- protocol's or a chain's incentive program. Membership is not stored here: an opportunity belongs to a program when
-- its `opportunities.program_slugs` (curated by PATCH /v4/opportunities/{id} and by the program routes) holds the
-- program's slug. Figures (TVL, daily rewards, campaign counts) are summed over the members at read time.
CREATE TABLE programs (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  slug text NOT NULL UNIQUE CHECK (slug ~ '^[a-z0-9][a-z0-9_-]*$' AND length(slug) <= 64),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  description text NOT NULL DEFAULT '',
  icon text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- Members of a program: opportunities whose program_slugs hold its slug.
CREATE INDEX opportunities_program_slugs_idx ON opportunities USING gin (program_slugs);
