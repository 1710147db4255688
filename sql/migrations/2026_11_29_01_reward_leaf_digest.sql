-- Trees stored by what changed, compared leaf by leaf (issue #30): each open leaf version carries a
-- digest of its amount and breakdowns (indexer/store/stagedLeaf.ts), so the next tree is staged one
-- row per leaf and compared with the open versions in one join on (recipient, token, digest); only
-- the leaves whose digest differs have their breakdowns expanded and compared. Versions stored before
-- this have no digest: the next tree of their chain rewrites each leaf version once (its breakdown
-- versions are still compared one by one, so unchanged ones stay).
ALTER TABLE reward_leaf_versions ADD COLUMN digest bytea;
