import { checkConsistency, type ConsistencyReport, type Differences } from '../../indexer/project/consistency.js';
import type { Command } from './types.js';

/** Ids listed per kind in the human report. */
const SHOWN = 10;

function differenceLines(d: Differences, indent: string): string[] {
  const out: string[] = [];
  const list = (ids: string[], count: number) =>
    `${ids.slice(0, SHOWN).join(', ')}${count > SHOWN ? `, … (${count - SHOWN} more)` : ''}`;
  if (d.missing.count) out.push(`${indent}missing in Elasticsearch: ${list(d.missing.ids, d.missing.count)}`);
  if (d.extra.count) out.push(`${indent}not in PostgreSQL: ${list(d.extra.ids, d.extra.count)}`);
  for (const doc of d.stale.documents.slice(0, SHOWN)) {
    out.push(
      `${indent}stale ${doc.id}: ${doc.differences.map((x) => `${x.field} ${JSON.stringify(x.actual)} ≠ ${JSON.stringify(x.expected)}`).join('; ')}`,
    );
  }
  if (d.stale.count > SHOWN) out.push(`${indent}… ${d.stale.count - SHOWN} more stale documents`);
  return out;
}

/** Pure: the human form of a consistency report. */
export function formatConsistencyReport(report: ConsistencyReport): string[] {
  const out: string[] = [];
  for (const f of report.families) {
    const pending = f.pending.missing.count + f.pending.extra.count + f.pending.stale.count;
    out.push(
      `${f.family}: postgres ${f.postgres}, elasticsearch ${f.elasticsearch}, missing ${f.missing.count}, extra ${f.extra.count}, stale ${f.stale.count}, pending ${pending}`,
    );
    out.push(...differenceLines(f, '  '));
    if (pending) out.push('  pending (outbox entries waiting; not a failure):', ...differenceLines(f.pending, '    '));
  }
  out.push(`outbox depth ${report.outboxDepth}; checked in ${(report.durationMs / 1000).toFixed(1)}s`);
  out.push(
    report.ok
      ? 'OK: PostgreSQL and Elasticsearch agree'
      : 'NOT OK: PostgreSQL and Elasticsearch differ (`reindex` rebuilds a family from PostgreSQL)',
  );
  return out;
}

/** `check [--json]`: compares PostgreSQL and Elasticsearch; exit code 1 when they differ. */
export const checkCommand: Command = {
  usage: 'check [--json]',
  needsIndices: true,
  async run(ctx, args) {
    const report = await checkConsistency({ config: ctx.config, pg: ctx.deps.pg, es: ctx.deps.es });
    if (args.includes('--json')) ctx.out(JSON.stringify(report, null, 2));
    else for (const line of formatConsistencyReport(report)) ctx.out(line);
    return report.ok ? 0 : 1;
  },
};
