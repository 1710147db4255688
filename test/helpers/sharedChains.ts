import { jsonRpc } from '../../contracts/devnet.js';
import { startTestChains, type TestChain } from './testChains.js';
import { afterRun } from './afterRun.js';

/**
 * Devnets shared by the suites of one mocha process: started (and our contracts deployed) the first
 * time a chain id is asked for, snapshotted right after the deploy, and reverted to that snapshot
 * each time a harness leases them, so every suite starts from the same fresh, freshly deployed chain
 * (same addresses, block number, balances, code and time offset; Hardhat's evm_revert restores the
 * time offset and drops a pending evm_setNextBlockTimestamp). A chain already leased (two harnesses
 * alive at once) is not shared: that lease gets devnets of its own. Set TEST_SHARED_DEVNETS=0 to give
 * every harness its own devnets (the old behaviour).
 */
type Pooled = { chain: TestChain; prepared: unknown; snapshotId: string; leased: boolean; stopReal(): Promise<void> };

/**
 * State written on a fresh devnet once, before the snapshot every lease reverts to (the reference
 * demo's seeded campaigns): a variant's devnets are pooled apart from the plain ones.
 */
export type ChainVariant = { name: string; prepare(chain: TestChain): Promise<unknown> };

const pool = new Map<string, Pooled>();
const keyOf = (chainId: number, variant?: ChainVariant) => (variant ? `${chainId}/${variant.name}` : `${chainId}`);
let leasing: Promise<void> = Promise.resolve();

export function sharedDevnetsEnabled(): boolean {
  return process.env['TEST_SHARED_DEVNETS'] !== '0';
}

async function startOwn(chainId: number, variant?: ChainVariant) {
  const started = await startTestChains([chainId]);
  try {
    const prepared = await variant?.prepare(started.chains[0]!);
    return { started, prepared };
  } catch (error) {
    await started.stop();
    throw error;
  }
}

async function startPooled(chainId: number, variant?: ChainVariant): Promise<Pooled> {
  const key = keyOf(chainId, variant);
  const { started, prepared } = await startOwn(chainId, variant);
  const inner = started.chains[0]!;
  const entry: Pooled = {
    chain: inner,
    prepared,
    snapshotId: await jsonRpc<string>(inner.devnet.rpcUrl, 'evm_snapshot'),
    leased: false,
    stopReal: () => started.stop(),
  };
  // A suite that stops its chain stops it for real; the next lease starts a new one.
  entry.chain = {
    stack: inner.stack,
    devnet: {
      ...inner.devnet,
      stop: async () => {
        if (pool.get(key) === entry) pool.delete(key);
        await started.stop();
      },
    },
  };
  pool.set(key, entry);
  return entry;
}

/** Reverts to the post-deploy snapshot and takes a new one (evm_revert consumes it). */
async function resetPooled(entry: Pooled): Promise<boolean> {
  try {
    const rpcUrl = entry.chain.devnet.rpcUrl;
    if (!(await jsonRpc<boolean>(rpcUrl, 'evm_revert', [entry.snapshotId], 5_000))) return false;
    entry.snapshotId = await jsonRpc<string>(rpcUrl, 'evm_snapshot', [], 5_000);
    return true;
  } catch {
    return false;
  }
}

type Lease = { chain: TestChain; prepared: unknown; release(): Promise<void> };

async function leaseOne(chainId: number, variant?: ChainVariant): Promise<Lease> {
  const key = keyOf(chainId, variant);
  let entry = pool.get(key);
  if (entry?.leased) {
    const { started, prepared } = await startOwn(chainId, variant);
    return { chain: started.chains[0]!, prepared, release: started.stop };
  }
  if (entry && !(await resetPooled(entry))) {
    pool.delete(key);
    await entry.stopReal();
    entry = undefined;
  }
  entry ??= await startPooled(chainId, variant);
  entry.leased = true;
  const leased = entry;
  return {
    chain: leased.chain,
    prepared: leased.prepared,
    release: async () => {
      leased.leased = false;
    },
  };
}

/**
 * Fresh devnets for `chainIds` (default 31337 and 31338) with our contracts deployed (and `variant`
 * prepared, its results in `prepared`): the process's shared ones reset by snapshot, or devnets of
 * their own when `isolated` (or a shared one is in use).
 * `stop` releases shared devnets (they keep running) and kills the suite's own.
 */
export type LeasedChains = { chains: TestChain[]; prepared: unknown[]; stop(): Promise<void> };

export async function leaseTestChains(
  chainIds: number[] = [31337, 31338],
  { isolated = false, variant }: { isolated?: boolean; variant?: ChainVariant } = {},
): Promise<LeasedChains> {
  if (isolated || !sharedDevnetsEnabled()) {
    const own: Lease[] = [];
    try {
      for (const chainId of chainIds) {
        const { started, prepared } = await startOwn(chainId, variant);
        own.push({ chain: started.chains[0]!, prepared, release: started.stop });
      }
    } catch (error) {
      await Promise.allSettled(own.map((l) => l.release()));
      throw error;
    }
    return {
      chains: own.map((l) => l.chain),
      prepared: own.map((l) => l.prepared),
      stop: async () => void (await Promise.allSettled(own.map((l) => l.release()))),
    };
  }
  const leases: Lease[] = [];
  // Leases are taken one at a time so that two harnesses created at once never share a chain.
  const turn = leasing.then(async () => {
    for (const chainId of chainIds) leases.push(await leaseOne(chainId, variant));
  });
  leasing = turn.catch(() => {});
  try {
    await turn;
  } catch (error) {
    await Promise.allSettled(leases.map((l) => l.release()));
    throw error;
  }
  return {
    chains: leases.map((l) => l.chain),
    prepared: leases.map((l) => l.prepared),
    stop: async () => void (await Promise.allSettled(leases.map((l) => l.release()))),
  };
}

/** Stops every shared devnet (mocha root hook at the end of the run; the devnets also die with the process). */
export async function stopSharedChains(): Promise<void> {
  const entries = [...pool.values()];
  pool.clear();
  await Promise.allSettled(entries.map((e) => e.stopReal()));
}

// The shared devnets stop once every suite of the run is done (afterRun). Should the process end first (a
// parallel worker), each devnet is killed by its own exit handler (contracts/devnet.ts).
afterRun(stopSharedChains);
