/**
 * `npm run bench`: runs the search (then bench:idle-gap on its data), indexer, claim, backfill-rss, many-chains and load benchmarks (and the peer comparison when
 * scripts/bench/peer.ts exists) one after another, each as its own process, and writes one report:
 * docs/benchmarks/report.md (figures as printed, machine facts, versions) plus PNG charts of the
 * load test's latency distributions under docs/benchmarks/. Sizes default to runs of a few minutes
 * (each benchmark's own variables override them).
 * Options: BENCH_REPORT_ONLY=search,idle-gap,indexer,claim,backfill-rss,many-chains,load,peer (subset; with it, the sections of the existing report
 * that are not re-run are kept, marked with the date of their run) BENCH_REPORT_DIR=docs/benchmarks
 * Sections a benchmark writes itself (scripts/bench/reportSection.ts, e.g. bench:rewards's) are kept as they are.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { latencyChartSvg, svgToPng } from './latencyChart.js';
import type { LoadStep } from './load.js';
import { isRunSection, splitSections } from './reportSection.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const OUT = process.env['BENCH_REPORT_DIR'] ?? `${ROOT}docs/benchmarks`;
const DATA = `${ROOT}.data/bench`;
const ONLY = process.env['BENCH_REPORT_ONLY']?.split(',');

type Section = { name: string; script: string; env: Record<string, string> };
const SECTIONS: Section[] = [
  {
    name: 'search',
    script: 'scripts/bench/search.ts',
    env: { BENCH_OPPORTUNITIES: '20000', BENCH_CAMPAIGNS: '100000', BENCH_REQUESTS: '100', BENCH_WARMUP: '10' },
  },
  // Right after search, on the data it left: why search measures the API and raw ES apart from PostgreSQL, and the floor of any API in front of ES.
  { name: 'idle-gap', script: 'scripts/bench/idleGap.ts', env: {} },
  {
    name: 'indexer',
    script: 'scripts/bench/indexer.ts',
    env: { BENCH_SIZES: '10000,50000,100000', BENCH_FRESHNESS_SAMPLES: '20' },
  },
  { name: 'claim', script: 'scripts/bench/claimFreshness.ts', env: { BENCH_CLAIM_SAMPLES: '20' } },
  { name: 'backfill-rss', script: 'scripts/bench/backfillRss.ts', env: { BENCH_RSS_SIZES: '10000,100000,1000000' } },
  { name: 'many-chains', script: 'scripts/bench/manyChains.ts', env: {} },
  { name: 'load', script: 'scripts/bench/load.ts', env: { BENCH_OUT_DIR: DATA } },
  ...(existsSync(`${ROOT}scripts/bench/peer.ts`) ? [{ name: 'peer', script: 'scripts/bench/peer.ts', env: {} }] : []),
];

/** Runs one benchmark; its own environment wins over the report's defaults. */
function runSection(s: Section): Promise<{ output: string; code: number | null; seconds: number }> {
  const t0 = Date.now();
  const child = spawn(process.execPath, ['--import', 'tsx', s.script], {
    cwd: ROOT,
    env: { ...s.env, ...process.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => {
    output += d;
    process.stdout.write(d);
  });
  child.stderr.on('data', (d: Buffer) => process.stderr.write(d)); // progress lines, not in the report
  return new Promise((resolve) =>
    child.once('exit', (code) => resolve({ output, code, seconds: (Date.now() - t0) / 1000 })),
  );
}

function machineFacts(): string[] {
  const cpu = os.cpus();
  return [
    `- date: ${new Date().toISOString()}`,
    `- CPU: ${cpu.length} × ${cpu[0]?.model ?? 'unknown'}; memory ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB; ${os.type()} ${os.release()}`,
    `- load average at the start: ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
    `- Node.js ${process.version}; versions of PostgreSQL and Elasticsearch are printed by each benchmark below`,
  ];
}

function loadCharts(): string[] {
  const file = `${DATA}/load.json`;
  if (!existsSync(file)) return [];
  const load = JSON.parse(readFileSync(file, 'utf8')) as { steps: LoadStep[] };
  const keys = ['p1', 'p10', 'p25', 'p50', 'p75', 'p90', 'p97_5', 'p99', 'p99_9'];
  const series = load.steps.map((s) => ({
    label: `${s.targetRps} req/s${s.ok ? '' : ' ✗'}`,
    points: keys.map((k) => ({ x: k.replace('_', '.'), ms: s.percentiles[k] ?? NaN })),
  }));
  writeFileSync(
    `${OUT}/load-latency.png`,
    svgToPng(latencyChartSvg({ title: 'bench:load: latency distribution per arrival rate (✗ = step failed)', series })),
  );
  return ['', '![load latency distribution per rate](load-latency.png)'];
}

const KEPT_NOTE =
  'Kept from an earlier run of this report (not re-run this time; its own header gives its date and machine load).';

/** The sections of an existing report (`## name (...)` up to the next section), by name. */
function previousSections(): Map<string, string[]> {
  const file = `${OUT}/report.md`;
  const out = new Map<string, string[]>();
  if (!existsSync(file)) return out;
  let current: string[] | null = null;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const name = /^## (\S+) \(/.exec(line)?.[1];
    if (name && SECTIONS.some((s) => s.name === name)) out.set(name, (current = [line]));
    else if (line.startsWith('## ')) current = null;
    else current?.push(line);
  }
  return out;
}

/** The sections of the existing report that benchmarks wrote themselves (not `## <name> (<seconds> s)`), as they are. */
function ownSections(): string[] {
  const file = `${OUT}/report.md`;
  if (!existsSync(file)) return [];
  return splitSections(readFileSync(file, 'utf8'))
    .filter((s) => s.heading !== 'Machine' && !isRunSection(s.heading))
    .map((s) => `${s.text.trimEnd()}\n`);
}

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const started = machineFacts();
  const own = ownSections();
  const kept = ONLY ? previousSections() : new Map<string, string[]>();
  const parts: string[] = [];
  for (const s of SECTIONS) {
    if (ONLY && !ONLY.includes(s.name)) {
      const previous = kept.get(s.name);
      if (!previous) continue;
      const body = previous
        .slice(1)
        .filter((l) => l !== KEPT_NOTE)
        .join('\n')
        .trim();
      parts.push(previous[0]!, '', KEPT_NOTE, '', body, '');
      continue;
    }
    console.log(`\n=== bench ${s.name} ===`);
    const r = await runSection(s);
    parts.push(
      `## ${s.name} (${r.seconds.toFixed(0)} s${r.code === 0 ? '' : `, exit ${r.code}`})`,
      '',
      '```',
      r.output.trim(),
      '```',
    );
    if (s.name === 'load') parts.push(...loadCharts());
    parts.push('');
  }
  const report = [
    '# Benchmark report',
    '',
    'Written by `npm run bench` (scripts/bench/report.ts); figures as the benchmarks printed them.',
    '',
    '## Machine',
    '',
    ...started,
    `- load average at the end: ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
    '',
    '> This machine has 2 CPUs shared with other work while the benchmarks ran: every latency and rate here is',
    '> noisy and pessimistic. Re-measure on a quiet machine before quoting absolute numbers; ratios measured',
    '> in the same run (API / raw ES, PostgreSQL / API, end-to-end / raw indexing) are more robust.',
    '',
    ...(SECTIONS.some((s) => s.name === 'peer')
      ? []
      : [
          '> The peer comparison with Ponder (`npm run bench:peer`) is not implemented yet, so it is not part of this report.',
          '',
        ]),
    ...parts,
    ...own,
  ].join('\n');
  writeFileSync(`${OUT}/report.md`, report);
  console.log(`\nreport written to ${OUT}/report.md`);
}

await main();
