/**
 * CPU time of the whole machine over a benchmark's window, by who spent it (scripts/bench/indexer.ts):
 * Linux /proc only. A ratio that is bound by the machine (every core busy) cannot be closed by
 * overlapping work inside one process; this tells which it is.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

const TICKS_PER_SECOND = 100;

/** At one moment: the machine's CPU seconds in all and idle, and CPU seconds (user + system) per process group. */
export type CpuSnapshot = { at: number; total: number; idle: number; byGroup: Map<string, number> };

/**
 * Names a process by what it is to a benchmark: ours, the devnet, a group the benchmark names by pid
 * (`named`, e.g. its API process), Elasticsearch, PostgreSQL, or other.
 */
export type ProcessGroups = { ours: number; devnets: number[]; named?: Record<string, number> };

function groupOf(pid: number, comm: string, groups: ProcessGroups): string {
  if (pid === groups.ours) return 'ours';
  for (const [name, named] of Object.entries(groups.named ?? {})) if (pid === named) return name;
  if (groups.devnets.includes(pid)) return 'devnet';
  if (comm === 'java') return 'elasticsearch';
  if (comm.startsWith('postgres')) return 'postgresql';
  return 'other';
}

function readProcStat(pid: string): { comm: string; seconds: number } | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // comm is in parentheses and may hold spaces; the fields after it are space separated.
    const close = text.lastIndexOf(')');
    const comm = text.slice(text.indexOf('(') + 1, close);
    const fields = text.slice(close + 2).split(' ');
    // utime and stime are fields 14 and 15 of the whole line: 12 and 13 after "state" (index 0 here).
    return { comm, seconds: (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND };
  } catch {
    return null; // the process ended between the listing and the read
  }
}

/** Reads the machine's CPU counters now (null off Linux). */
export function snapshotCpu(groups: ProcessGroups): CpuSnapshot | null {
  let cpuLine: string | undefined;
  try {
    cpuLine = readFileSync('/proc/stat', 'utf8').split('\n')[0];
  } catch {
    return null;
  }
  const ticks = (cpuLine ?? '').split(/\s+/).slice(1).map(Number);
  const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0);
  const total = ticks.slice(0, 8).reduce((a, b) => a + b, 0);
  const byGroup = new Map<string, number>();
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    const stat = readProcStat(pid);
    if (!stat) continue;
    const group = groupOf(Number(pid), stat.comm, groups);
    byGroup.set(group, (byGroup.get(group) ?? 0) + stat.seconds);
  }
  return { at: performance.now(), total: total / TICKS_PER_SECOND, idle: idle / TICKS_PER_SECOND, byGroup };
}

/**
 * One line: wall time, the machine's busy cores on average (of its available cores), and CPU seconds per group
 * between two snapshots (processes that started or ended inside the window are counted from or up to what was seen).
 */
export function describeCpu(before: CpuSnapshot | null, after: CpuSnapshot | null): string {
  if (!before || !after) return 'machine CPU: not available (no /proc)';
  const wall = (after.at - before.at) / 1000;
  const busy = after.total - after.idle - (before.total - before.idle);
  const parts = [...after.byGroup]
    .map(([group, seconds]) => [group, seconds - (before.byGroup.get(group) ?? 0)] as const)
    .filter(([, seconds]) => seconds > 0.005)
    .sort((a, b) => b[1] - a[1])
    .map(([group, seconds]) => `${group} ${seconds.toFixed(2)}`);
  return `machine CPU over ${wall.toFixed(2)} s: ${busy.toFixed(2)} s busy = ${(busy / wall).toFixed(2)} of ${availableParallelism()} cores (${parts.join(', ')})`;
}
