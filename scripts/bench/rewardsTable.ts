/**
 * Pure: the figures of bench:rewards (scripts/bench/rewards.ts) as Markdown tables and detail lines,
 * printed and written into docs/benchmarks/report.md as they are.
 */
import { percentile } from './benchParams.js';
import type { ExplainedStatement } from './explainedRead.js';
import type { FirstReads } from './rewardReads.js';
import type { RootIngestion } from './rootIngestion.js';
import type { TimedLogLine } from './schedulerProcess.js';
import type { SlowStatement } from './slowStatements.js';

export type RootFigures = {
  label: 'first' | '1% changed';
  changedLeaves: number;
  treeFileBytes: number;
  ingestion: RootIngestion;
  firstReads: FirstReads;
  /** Warm reads, ms ascending. */
  warm: number[];
  /** Reads after the OS page cache was dropped, ms ascending (null: it could not be dropped). */
  cold: number[] | null;
  /** One more recipient's read, statement by statement (EXPLAIN ANALYZE, BUFFERS). */
  explained: { statements: ExplainedStatement[]; ms: number };
  apiRss: number;
  apiRssPeak: number;
};

export type SizeFigures = {
  leaves: number;
  /** The campaigns the breakdowns name (1: one campaign holds every leaf). */
  campaigns: number;
  /** Generating both trees (roots computed, files written), seconds. */
  generateSeconds: number;
  /** The other chain's freshness before any root, seconds. */
  idleFreshness: number[];
  roots: RootFigures[];
};

const mib = (bytes: number) => {
  const x = bytes / 2 ** 20;
  return `${Math.abs(x) < 10 ? x.toFixed(1) : x.toFixed(0)} MiB`;
};
const ms = (x: number) => `${x < 10 ? x.toFixed(1) : x.toFixed(0)} ms`;
const s = (x: number) => (x < 1 ? ms(x * 1000) : `${x < 10 ? x.toFixed(2) : x.toFixed(1)} s`);
const sorted = (xs: readonly number[]) => [...xs].sort((a, b) => a - b);
const p = (xs: readonly number[], q: number) => (xs.length ? percentile(sorted(xs), q) : NaN);
const count = (n: number) => n.toLocaleString('en-US');
/** A size and its shape: `1,000,000 × 1 campaign`, with the entry point when it is not the scheduler. */
const shape = (z: SizeFigures) => {
  const entry = z.roots[0]?.ingestion.entry;
  return `${count(z.leaves)} × ${z.campaigns} campaign${z.campaigns === 1 ? '' : 's'}${entry && entry !== 'scheduler' ? `, ${entry}` : ''}`;
};

/** `p50 / p95 (n)` of seconds, or `no sample`. */
function quantiles(seconds: readonly number[]): string {
  return seconds.length ? `${s(p(seconds, 50))} / ${s(p(seconds, 95))} (${seconds.length})` : 'no sample';
}

/** The ingestion table: one row per size and root. */
export function ingestionTable(sizes: readonly SizeFigures[], hashesPerSecond: number): string[] {
  const rows = sizes.flatMap((z) =>
    z.roots.map((r) => {
      const i = r.ingestion;
      return [
        shape(z),
        r.label,
        i.commandSeconds === null ? i.entry : `${i.entry} (${s(i.commandSeconds)})`,
        mib(r.treeFileBytes),
        s(i.seconds),
        i.runSeconds === null ? 'n/a' : s(i.runSeconds),
        s((2 * z.leaves) / hashesPerSecond),
        `${mib(Math.max(i.rssPeak, i.treeRssPeak))} (${i.entry === 'scheduler' ? mib(i.rssBefore) : 'new process'})`,
        ms(i.eventLoop.maxMs),
        mib(i.bytes.total),
        quantiles(i.freshness),
      ];
    }),
  );
  return [
    '| leaves × campaigns | root | entry (wall) | tree file | posted → stored | roots run | 2n keccak floor | job peak RSS (before) | job event-loop max | bytes stored | other chain p50 / p95 (n) |',
    '|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map((cells) => `| ${cells.join(' | ')} |`),
  ];
}

/** The API table: one row per size and root. */
export function apiTable(sizes: readonly SizeFigures[]): string[] {
  const rows = sizes.flatMap((z) =>
    z.roots.map((r) => {
      const f = r.firstReads;
      const loop = f.eventLoop;
      return [
        shape(z),
        r.label,
        ms(f.firstMs),
        f.nextMs.length ? `${ms(p(f.nextMs, 50))} / ${ms(Math.max(...f.nextMs))}` : 'n/a',
        `${ms(p(f.live, 99))} / ${ms(Math.max(...f.live))} (${f.live.length})`,
        loop ? `${ms(loop.maxMs)} / ${ms(loop.p99Ms)}` : 'n/a',
        `${ms(p(r.warm, 50))} / ${ms(p(r.warm, 95))} (${r.warm.length})`,
        r.cold ? `${ms(p(r.cold, 50))} / ${ms(p(r.cold, 95))} (${r.cold.length})` : 'not measured',
        `${mib(r.apiRss)} (${mib(r.apiRssPeak)})`,
      ];
    }),
  );
  return [
    '| leaves × campaigns | root | first read | next reads p50 / max | /health/live p99 / max (polls) | API event-loop max / p99 | warm p50 / p95 (reads) | page cache dropped p50 / p95 (reads) | API RSS (peak) |',
    '|---:|---|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map((cells) => `| ${cells.join(' | ')} |`),
  ];
}

/** Pure: the job's timed steps as `name 1.2 s, …` in order (a tree phase by its phase, another step by its message). */
export function stepsLine(steps: readonly TimedLogLine[]): string {
  if (!steps.length) return 'none logged';
  return steps.map((t) => `${t.phase ?? t.msg} ${s(t.ms / 1000)}`).join(', ');
}

/** Pure: the slowest statements (at most 10) as `4.1 s INSERT INTO …; …`, with how many there were. */
export function slowLine(statements: readonly SlowStatement[]): string {
  if (!statements.length) return 'none';
  const total = statements.reduce((sum, x) => sum + x.ms, 0);
  const listed = statements.slice(0, 10).map((x) => `${s(x.ms / 1000)} \`${x.text.replaceAll('`', "'")}\``);
  return `${statements.length} taking ${s(total / 1000)} in all; longest: ${listed.join('; ')}`;
}

/** Pure: a read's statements as `n statements, P pages (R not in PostgreSQL's buffers): 0.1 ms 3/0 pages 1 row \`SELECT …\`; …`. */
export function explainedLine({
  statements,
  ms: wall,
}: {
  statements: readonly ExplainedStatement[];
  ms: number;
}): string {
  const pages = statements.reduce((sum, x) => sum + x.hit + x.read, 0);
  const read = statements.reduce((sum, x) => sum + x.read, 0);
  const each = statements.map(
    (x) => `${ms(x.ms)} ${x.hit}/${x.read} pages ${x.rows} rows \`${x.text.replaceAll('`', "'")}\``,
  );
  return `${statements.length} statements, ${pages} pages (${read} not in PostgreSQL's buffers), ${ms(wall)} with the explains: ${each.join('; ')}`;
}

/** Detail lines per size: generation, idle freshness, bytes per table and machine CPU per root. */
export function detailLines(sizes: readonly SizeFigures[]): string[] {
  return sizes.flatMap((z) => [
    `- ${shape(z)}: both trees generated in ${s(z.generateSeconds)}; other chain idle (before any root) p50 / p95 ${quantiles(z.idleFreshness)}`,
    ...z.roots.flatMap((r) => [
      `  - ${r.label} root${r.changedLeaves ? ` (${count(r.changedLeaves)} leaves changed)` : ''}: bytes added ${r.ingestion.bytes.byTable
        .filter(([, b]) => b !== 0)
        .map(([table, b]) => `${table} ${mib(b)}`)
        .join(', ')}; job event-loop p99 ${ms(r.ingestion.eventLoop.p99Ms)}`,
      `    ${r.ingestion.cpu}`,
      `    roots run steps: ${stepsLine(r.ingestion.steps)}`,
      `    PostgreSQL statements over the threshold: ${slowLine(r.ingestion.slowStatements)}`,
      `    one spread recipient's read, statement by statement: ${explainedLine(r.explained)}`,
    ]),
  ]);
}
