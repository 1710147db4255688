/**
 * Resident memory of a benchmark's child processes, from Linux /proc (scripts/bench/rewards.ts): the
 * kernel's own high-water mark (VmHWM, reset between measured windows through clear_refs) and, for work
 * a process hands to children of its own, the summed RSS of its process tree sampled meanwhile.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';

/** A `Vm…:` field of /proc/<pid>/status in bytes, or null once the process is gone (or off Linux). */
export function statusBytes(pid: number, field: 'VmRSS' | 'VmHWM'): number | null {
  try {
    const kb = new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? null : Number(kb) * 1024;
  } catch {
    return null;
  }
}

/** Resets the process's VmHWM to its current RSS (`echo 5 > /proc/<pid>/clear_refs`, Linux ≥ 4.0); false when refused. */
export function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** The parent pid of every process now, by pid. */
function parents(): Map<number, number> {
  const out = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const text = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // comm (in parentheses) may hold spaces; the parent pid is the second field after it.
      out.set(Number(entry), Number(text.slice(text.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // ended between the listing and the read
    }
  }
  return out;
}

/** Pids of `pid` and every descendant of it. */
export function processTree(pid: number): number[] {
  const byParent = new Map<number, number[]>();
  for (const [child, parent] of parents()) byParent.set(parent, [...(byParent.get(parent) ?? []), child]);
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) tree.push(...(byParent.get(tree[i]!) ?? []));
  return tree;
}

export type RssSampler = {
  /** Stops sampling; the highest summed RSS of the process tree seen, in bytes. */
  stop(): number;
};

/** Samples the summed RSS of `pid`'s process tree every `everyMs` (the tree is re-listed every 10 samples). */
export function sampleTreeRss(pid: number, everyMs = 100): RssSampler {
  let peak = 0;
  let tree = processTree(pid);
  let ticks = 0;
  const timer = setInterval(() => {
    if (++ticks % 10 === 0) tree = processTree(pid);
    peak = Math.max(
      peak,
      tree.reduce((sum, p) => sum + (statusBytes(p, 'VmRSS') ?? 0), 0),
    );
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      return peak;
    },
  };
}
