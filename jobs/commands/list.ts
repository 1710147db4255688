import type { Command, CommandContext } from './types.js';
import { loadJobListings, type JobListing } from '../../domain/jobs/listJobs.js';

const time = (iso: string | null) => (iso ? iso.replace(/\.\d{3}Z$/, 'Z') : 'never');

/** Pure: one chain's position and lag, or why there is no lag in blocks. */
function chainLag(l: JobListing, c: JobListing['chains'][number]): string {
  const seconds = c.lagSeconds === null ? '' : `, ${c.lagSeconds} s`;
  if (!l.blockCursor) return `${c.lagNote}${c.lagSeconds === null ? '' : `; last success ${c.lagSeconds} s ago`}`;
  const position = `cursor ${c.cursor ?? 'none yet'}, head ${c.head ?? '?'}`;
  return c.lagBlocks === null
    ? `${position}, lag unknown (${c.lagNote})`
    : `${position}, lag ${c.lagBlocks} blocks${seconds}`;
}

/** Pure: the human table of `list`. */
export function formatJobListings(listings: JobListing[]): string[] {
  const header = ['JOB', 'SCHEDULE', 'STATE', 'LAST RUN', 'LAST SUCCESS', 'ERRORS 24H'];
  const rows = listings.map((l) => [
    l.name,
    `${l.schedule} (${l.scheduleSource})`,
    l.state,
    l.lastRun
      ? `${l.lastRun.status} ${time(l.lastRun.startedAt)}${l.lastRun.durationMs === null ? '' : ` ${(l.lastRun.durationMs / 1000).toFixed(2)}s`}`
      : 'never',
    time(l.lastSuccessAt),
    `${l.errors24h}/${l.runs24h} runs`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  const out = [line(header)];
  listings.forEach((l, i) => {
    out.push(line(rows[i]!));
    for (const c of l.chains) {
      const failing =
        c.consecutiveFailures > 0
          ? `, failing: ${c.consecutiveFailures} in a row${c.lastRun?.error ? ` (${c.lastRun.error})` : ''}`
          : '';
      out.push(`  chain ${c.chainId}: ${chainLag(l, c)}${failing}`);
    }
    if (l.lastRun?.status === 'failed' && l.lastRun.error) out.push(`  last error: ${l.lastRun.error}`);
  });
  return out;
}

/**
 * `list [--json]`: every job with its effective schedule (and where it comes from), state, last run
 * (status, start, duration), last success, errors in 24 h, and per chain the lag: canonical head
 * (blocks cursor) − cursor; for the blocks job, the node's head − cursor.
 */
export const listCommand: Command = {
  usage: 'list [--json]',
  async run(ctx: CommandContext, args: string[]) {
    const listings = await loadJobListings({ config: ctx.config, pg: ctx.deps.pg, rpc: ctx.deps.rpc });
    if (args.includes('--json')) ctx.out(JSON.stringify(listings, null, 2));
    else for (const line of formatJobListings(listings)) ctx.out(line);
    return 0;
  },
};
