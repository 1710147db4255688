/**
 * Global fixtures of the parallel part of `npm test` (test/.mocharc.parallel.cjs), run once in mocha's main
 * process. A worker process runs many files, and mocha gives no hook at a worker's end (afterRun.ts registers
 * none there): the shared devnets die with the worker (contracts/devnet.ts), and what the workers leave on the
 * shared services is removed here, after the last file: the reference demo's template databases
 * (<test db>_w<id>_demo_<n>) and every index of this run (uniqueIndexPrefix names them test-<TEST_RUN_ID>-…).
 * Before the workers start, it compiles the sources the processes tests start run from (compiledSources.ts).
 * The workers' own databases stay, reset by the next run.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createEsClient } from '../../internal/es.js';
import { deleteIndices } from '../../search-mappings/aliases.js';
import { compiledDir, compileSources } from './compiledSources.js';
import { databaseNameOf, databaseUrlNamed, dropDatabase } from './database.js';
import { TEST_DATABASE_URL, TEST_ES_URL } from './testConfig.js';

export async function mochaGlobalSetup(): Promise<void> {
  // Set before the workers are forked: they inherit them.
  process.env['TEST_RUN_ID'] ??= randomBytes(3).toString('hex');
  process.env['TEST_FILE_TIMES'] ??= join(tmpdir(), `test-file-times-${process.env['TEST_RUN_ID']}.jsonl`);
  const compiled = compiledDir(`run-${process.env['TEST_RUN_ID']}`);
  await compileSources(compiled);
  process.env['TEST_COMPILED_DIR'] = compiled;
}

export async function mochaGlobalTeardown(): Promise<void> {
  if (process.env['TEST_FILE_TIMES']) rmSync(process.env['TEST_FILE_TIMES'], { force: true });
  if (process.env['TEST_COMPILED_DIR']) rmSync(process.env['TEST_COMPILED_DIR'], { recursive: true, force: true });
  const base = databaseNameOf(TEST_DATABASE_URL);
  const client = new pg.Client({ connectionString: databaseUrlNamed(TEST_DATABASE_URL, 'postgres') });
  await client.connect();
  let templates: string[];
  try {
    const { rows } = await client.query<{ datname: string }>(
      "SELECT datname FROM pg_database WHERE datname LIKE $1 ESCAPE '!' AND datname ~ '_w[0-9]+_demo_[0-9]+$'",
      [`${base.replace(/[!_%]/g, '!$&')}!_w%`],
    );
    templates = rows.map((r) => r.datname);
  } finally {
    await client.end();
  }
  for (const name of templates) await dropDatabase(databaseUrlNamed(TEST_DATABASE_URL, name));
  const es = createEsClient({ node: TEST_ES_URL, requestTimeoutMs: 30_000 });
  try {
    await deleteIndices({ es, prefix: `test-${process.env['TEST_RUN_ID']}` });
  } finally {
    await es.close();
  }
}
