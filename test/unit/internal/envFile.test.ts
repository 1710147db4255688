import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { environmentOf, QUICK_START_ENV_FILE, writeEnvFile } from '../../../internal/envFile.js';

/** The quick start's settings reach every process through its env file, under the process's own environment (#44). */
describe('internal/envFile', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'env-file-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads ENV_FILE under the environment: a variable set wins, an empty one does not', () => {
    const file = join(dir, 'a.env');
    writeEnvFile(file, { PRICE_API_URL: 'http://127.0.0.1:4000', CHAINS: '[{"id":1}]', LOG_LEVEL: 'info' }, 'test');
    const env = environmentOf({ ENV_FILE: file, LOG_LEVEL: 'debug', CHAINS: '' });
    expect(env).to.deep.include({ PRICE_API_URL: 'http://127.0.0.1:4000', CHAINS: '[{"id":1}]', LOG_LEVEL: 'debug' });
  });

  it("defaults to the quick start's file, and to none under NODE_ENV=test", () => {
    expect(QUICK_START_ENV_FILE).to.match(/\/\.data\/quickstart\.env$/);
    const test = { NODE_ENV: 'test', PATH: '/bin' };
    expect(environmentOf(test)).to.equal(test);
  });
});
