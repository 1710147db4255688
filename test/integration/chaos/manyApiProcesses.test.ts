import type { ChildProcess } from 'node:child_process';
import { expect } from 'chai';
import { createKey } from '../../../api/routes/developer/repo.js';
import { findFreePort } from '../../../contracts/devnet.js';
import { startRoundRobinFront, type RoundRobinFront } from '../../../scripts/roundRobinFront.js';
import { API_PROCESS_PORTS, startApiProcess } from '../../helpers/apiProcess.js';
import { chaosSettings } from '../../helpers/chaosSettings.js';
import { createHarness, type Harness } from '../../helpers/harness.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const PROCESSES = 3;
/** Requests per second of a tier-0 key: small, so a burst crosses it; everyone else effectively unlimited. */
const KEY_LIMIT = 5;
const BURST = 4 * KEY_LIMIT;
const API_ENV = { RATE_LIMITS: `1000000,${KEY_LIMIT},1000000,1000000`, TRUSTED_PROXIES: '1' };
const READS = ['/v4/chains', '/v4/opportunities?items=5', '/v4/tokens', '/v4/opportunities/count'];

type Sample = { startedAt: number; endedAt: number; status: number };

/** A closed-loop read load through the front: `workers` callers, each sending the next read when answered. */
function readLoad(url: string, workers: number) {
  const samples: Sample[] = [];
  let running = true;
  const loops = Array.from({ length: workers }, async (_, w) => {
    for (let n = w; running; n++) {
      const startedAt = Date.now();
      let status = 0; // connection reset or body cut off
      try {
        const res = await fetch(url + READS[n % READS.length], { signal: AbortSignal.timeout(10_000) });
        await res.arrayBuffer();
        status = res.status;
      } catch {}
      samples.push({ startedAt, endedAt: Date.now(), status });
    }
  });
  return {
    samples,
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}

/**
 * A burst of BURST parallel requests of one key, inside one one-second window (it starts 50 ms into
 * a second; a burst that ended in the next second is discarded and sent again in a later one).
 */
async function burst(url: string, key: string): Promise<number[]> {
  for (let attempt = 0; attempt < 5; attempt++) {
    await sleep(1050 - (Date.now() % 1000));
    const second = Math.floor(Date.now() / 1000);
    const statuses = await Promise.all(
      Array.from({ length: BURST }, () =>
        fetch(`${url}/v4/chains`, { headers: { 'x-api-key': key } }).then(async (r) => {
          await r.arrayBuffer();
          return r.status;
        }),
      ),
    );
    if (Math.floor(Date.now() / 1000) === second) return statuses;
  }
  throw new Error('no burst fitted in one one-second window in 5 tries');
}

const count = (xs: number[], x: number) => xs.filter((y) => y === x).length;

/**
 * Issue #34: three API processes behind a round-robin front under read load; one is SIGKILLed.
 * Only the requests it was running fail, and a key's per-second limit holds across the processes
 * (PostgreSQL counts it), with three processes and with two.
 */
describe('chaos: one of three API processes SIGKILLed behind a front (#34)', function () {
  let h: Harness;
  let front: RoundRobinFront;
  const ports: number[] = [];
  const procs: (ChildProcess | null)[] = [];

  before(async function () {
    this.timeout(300_000);
    h = await createHarness({ chainIds: [31337] });
    for (let i = 0; i < PROCESSES; i++)
      ports.push(
        // A third of the range each, so the three never pick the same port before binding it.
        await findFreePort({ from: API_PROCESS_PORTS.from + i * 300, to: API_PROCESS_PORTS.from + i * 300 + 299 }),
      );
    procs.push(...(await Promise.all(ports.map((port) => startApiProcess({ config: h.config, port, env: API_ENV })))));
    front = await startRoundRobinFront({ upstreams: ports.map((p) => `http://127.0.0.1:${p}`) });
  });

  after(async () => {
    for (const p of procs) p?.kill('SIGKILL');
    await front?.close();
    await h?.close();
  });

  it(`only the victim's in-flight requests fail, and a ${KEY_LIMIT}/s key gets exactly ${KEY_LIMIT} per second, in ${chaosSettings.apiKills} kill(s)`, async function () {
    this.timeout(120_000 + chaosSettings.apiKills * (chaosSettings.apiLoadSeconds * 2000 + 60_000));
    const key = (
      await createKey(h.deps.pg, `0x${'7'.repeat(40)}`, 'chaos: many API processes', {
        from: '127.0.0.1',
        perDay: 1,
      })
    ).rawKey;
    const figures: Record<string, unknown>[] = [];
    for (let kill = 0; kill < chaosSettings.apiKills; kill++) {
      const victim = kill % PROCESSES;
      const victimUrl = `http://127.0.0.1:${ports[victim]}`;
      const load = readLoad(front.url, 6);
      const threeUp = await burst(front.url, key);
      await sleep(chaosSettings.apiLoadSeconds * 1000);
      const atKill = front.stats();
      procs[victim]!.kill('SIGKILL');
      await new Promise((r) => procs[victim]!.once('exit', r));
      // Until its exit is seen, the dying process's kernel may still accept connections it then resets.
      const diedAt = Date.now();
      const inFlightAtDeath = atKill.inFlight[victimUrl]! + front.stats().sent[victimUrl]! - atKill.sent[victimUrl]!;
      const twoUp = await burst(front.url, key);
      await sleep(chaosSettings.apiLoadSeconds * 1000);
      await load.stop();

      const failed = load.samples.filter((s) => s.status !== 200);
      const after = load.samples.filter((s) => s.startedAt > diedAt);
      const row = {
        kill: kill + 1,
        victim,
        reads: load.samples.length,
        readsAfterKill: after.length,
        inFlightAtKill: atKill.inFlight[victimUrl],
        inFlightAtDeath,
        failed: failed.length,
        failedStatuses: [...new Set(failed.map((s) => s.status))],
        retriedOnNextProcess: front.stats().retried,
        burst3: `${count(threeUp, 200)}×200 ${count(threeUp, 429)}×429`,
        burst2: `${count(twoUp, 200)}×200 ${count(twoUp, 429)}×429`,
      };
      figures.push(row);
      console.log(`      ${JSON.stringify(row)}`);
      expect(failed.length, 'failed reads').to.be.at.most(inFlightAtDeath);
      expect(
        failed.every((s) => s.startedAt <= diedAt && [0, 502].includes(s.status)),
        'every failure was sent to the victim before it was gone',
      ).to.equal(true);
      expect(after.length, 'reads after the kill').to.be.greaterThan(10);
      expect(
        after.every((s) => s.status === 200),
        'every read after the kill',
      ).to.equal(true);
      expect(count(threeUp, 200), 'burst over three processes').to.equal(KEY_LIMIT);
      expect(count(threeUp, 429)).to.equal(BURST - KEY_LIMIT);
      expect(count(twoUp, 200), 'burst over the two left').to.equal(KEY_LIMIT);
      expect(count(twoUp, 429)).to.equal(BURST - KEY_LIMIT);
      procs[victim] = await startApiProcess({ config: h.config, port: ports[victim]!, env: API_ENV });
    }
    expect(figures).to.have.length(chaosSettings.apiKills);
  });
});
