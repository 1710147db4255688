/**
 * Pure: the figures of bench:rewards (scripts/bench/rewards.ts) as Markdown tables and detail lines,
 * printed and written into docs/benchmarks/report.md as they are.
 */
import { percentile } from './benchParams.js';
import type { FirstReads } from './rewardReads.js';
import type { RootIngestion } from './rootIngestion.js';

export type RootFigures = {
  label: 'first' | '1% changed';
  changedLeaves: number;
  treeFileBytes: number;
  ingestion: RootIngestion;
  firstReads: FirstReads;
  /** Warm reads, ms ascending. */
  warm: number[];
  apiRss: number;
  apiRssPeak: number;
};

export type SizeFigures = {
  leaves: number;
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
        count(z.leaves),
        r.label,
        mib(r.treeFileBytes),
        s(i.seconds),
        i.runSeconds === null ? 'n/a' : s(i.runSeconds),
        s((2 * z.leaves) / hashesPerSecond),
        `${mib(Math.max(i.rssPeak, i.treeRssPeak))} (${mib(i.rssBefore)})`,
        ms(i.eventLoop.maxMs),
        mib(i.bytes.total),
        quantiles(i.freshness),
      ];
    }),
  );
  return [
    '| leaves | root | tree file | posted → stored | roots run | 2n keccak floor | job peak RSS (before) | job event-loop max | bytes stored | other chain p50 / p95 (n) |',
    '|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|',
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
        count(z.leaves),
        r.label,
        ms(f.firstMs),
        f.nextMs.length ? `${ms(p(f.nextMs, 50))} / ${ms(Math.max(...f.nextMs))}` : 'n/a',
        `${ms(p(f.live, 99))} / ${ms(Math.max(...f.live))} (${f.live.length})`,
        loop ? `${ms(loop.maxMs)} / ${ms(loop.p99Ms)}` : 'n/a',
        `${ms(p(r.warm, 50))} / ${ms(p(r.warm, 95))} (${r.warm.length})`,
        `${mib(r.apiRss)} (${mib(r.apiRssPeak)})`,
      ];
    }),
  );
  return [
    '| leaves | root | first read | next reads p50 / max | /health/live p99 / max (polls) | API event-loop max / p99 | warm p50 / p95 (reads) | API RSS (peak) |',
    '|---:|---|---:|---:|---:|---:|---:|---:|',
    ...rows.map((cells) => `| ${cells.join(' | ')} |`),
  ];
}

/** Detail lines per size: generation, idle freshness, bytes per table and machine CPU per root. */
export function detailLines(sizes: readonly SizeFigures[]): string[] {
  return sizes.flatMap((z) => [
    `- ${count(z.leaves)} leaves: both trees generated in ${s(z.generateSeconds)}; other chain idle (before any root) p50 / p95 ${quantiles(z.idleFreshness)}`,
    ...z.roots.flatMap((r) => [
      `  - ${r.label} root${r.changedLeaves ? ` (${count(r.changedLeaves)} leaves changed)` : ''}: bytes added ${r.ingestion.bytes.byTable
        .filter(([, b]) => b !== 0)
        .map(([table, b]) => `${table} ${mib(b)}`)
        .join(', ')}; job event-loop p99 ${ms(r.ingestion.eventLoop.p99Ms)}`,
      `    ${r.ingestion.cpu}`,
    ]),
  ]);
}
