import { jsonRpc } from '../../contracts/devnet.js';
import { startTestChains, type TestChain } from './testChains.js';

/**
 * Devnets shared by the suites of one mocha process: started (and our contracts deployed) the first
 * time a chain id is asked for, snapshotted right after the deploy, and reverted to that snapshot
 * each time a harness leases them, so every suite starts from the same fresh, freshly deployed chain
 * (same addresses, block number, balances, code and time offset; Hardhat's evm_revert restores the
 * time offset and drops a pending evm_setNextBlockTimestamp). A chain already leased (two harnesses
 * alive at once) is not shared: that lease gets devnets of its own. Set TEST_SHARED_DEVNETS=0 to give
 * every harness its own devnets (the old behaviour).
 */
type Pooled = { chain: TestChain; snapshotId: string; leased: boolean; stopReal(): Promise<void> };

const pool = new Map<number, Pooled>();
let leasing: Promise<void> = Promise.resolve();

export function sharedDevnetsEnabled(): boolean {
  return process.env['TEST_SHARED_DEVNETS'] !== '0';
}

async function startPooled(chainId: number): Promise<Pooled> {
  const started = await startTestChains([chainId]);
  const inner = started.chains[0]!;
  const entry: Pooled = {
    chain: inner,
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
        if (pool.get(chainId) === entry) pool.delete(chainId);
        await started.stop();
      },
    },
  };
  pool.set(chainId, entry);
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

async function leaseOne(chainId: number): Promise<{ chain: TestChain; release(): Promise<void> }> {
  let entry = pool.get(chainId);
  if (entry?.leased) {
    const own = await startTestChains([chainId]);
    return { chain: own.chains[0]!, release: own.stop };
  }
  if (entry && !(await resetPooled(entry))) {
    pool.delete(chainId);
    await entry.stopReal();
    entry = undefined;
  }
  entry ??= await startPooled(chainId);
  entry.leased = true;
  const leased = entry;
  return {
    chain: leased.chain,
    release: async () => {
      leased.leased = false;
    },
  };
}

/**
 * Fresh devnets for `chainIds` (default 31337 and 31338) with our contracts deployed: the process's
 * shared ones reset by snapshot, or devnets of their own when `isolated` (or a shared one is in use).
 * `stop` releases shared devnets (they keep running) and kills the suite's own.
 */
export async function leaseTestChains(
  chainIds: number[] = [31337, 31338],
  { isolated = false }: { isolated?: boolean } = {},
): Promise<{ chains: TestChain[]; stop(): Promise<void> }> {
  if (isolated || !sharedDevnetsEnabled()) return startTestChains(chainIds);
  const leases: { chain: TestChain; release(): Promise<void> }[] = [];
  // Leases are taken one at a time so that two harnesses created at once never share a chain.
  const turn = leasing.then(async () => {
    for (const chainId of chainIds) leases.push(await leaseOne(chainId));
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
    stop: async () => void (await Promise.allSettled(leases.map((l) => l.release()))),
  };
}

/** Stops every shared devnet (mocha root hook at the end of the run; the devnets also die with the process). */
export async function stopSharedChains(): Promise<void> {
  const entries = [...pool.values()];
  pool.clear();
  await Promise.allSettled(entries.map((e) => e.stopReal()));
}

// A root-level mocha hook (registered when a test file first loads this module): the shared devnets
// stop once every suite of the run is done. Should the process end first, each devnet is killed by
// its own exit handler (contracts/devnet.ts).
const rootAfter = (globalThis as { after?: (fn: () => Promise<void>) => void }).after;
rootAfter?.(stopSharedChains);
