// Global fixtures of the parallel part of `npm test` (test/.mocharc.parallel.cjs), run once in mocha's main
// process. A worker process runs many files, and mocha gives no hook at a worker's end: the shared devnets die
// with the worker (contracts/devnet.ts), and what the workers leave on the shared services is removed here,
// after the last file: the reference demo's template databases (<test db>_w<id>_demo_<n>) and every index of this
// run (uniqueIndexPrefix names them test-<TEST_RUN_ID>-…). The workers' own databases stay, reset by the next run.
const { randomBytes } = require('node:crypto');
const pg = require('pg');

const DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:55432/rewards_test';
const ES_URL = process.env.TEST_ES_URL ?? process.env.ES_URL ?? 'http://127.0.0.1:59200';

exports.mochaGlobalSetup = function mochaGlobalSetup() {
  // Set before the workers are forked: they inherit it.
  process.env.TEST_RUN_ID ??= randomBytes(3).toString('hex');
};

exports.mochaGlobalTeardown = async function mochaGlobalTeardown() {
  const run = process.env.TEST_RUN_ID;
  const url = new URL(DATABASE_URL);
  const base = decodeURIComponent(url.pathname.slice(1));
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    const { rows } = await client.query(
      "SELECT datname FROM pg_database WHERE datname LIKE $1 ESCAPE '!' AND datname ~ '_w[0-9]+_demo_[0-9]+$'",
      [`${base.replace(/[!_%]/g, '!$&')}!_w%`],
    );
    for (const { datname } of rows)
      await client.query(`DROP DATABASE IF EXISTS "${datname.replace(/"/g, '""')}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
  const listed = await fetch(`${ES_URL}/_cat/indices/test-${run}-*?format=json&h=index&expand_wildcards=all`);
  const indices = listed.ok ? (await listed.json()).map((i) => i.index) : [];
  for (let i = 0; i < indices.length; i += 50) {
    const res = await fetch(`${ES_URL}/${indices.slice(i, i + 50).join(',')}`, { method: 'DELETE' });
    if (!res.ok) throw new Error(`deleting this run's indices: ${res.status} ${await res.text()}`);
  }
};
