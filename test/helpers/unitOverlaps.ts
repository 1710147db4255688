/** A job_runs row as the work-unit tests read it. */
export type UnitRun = {
  job: string;
  chain_id: number | null;
  runner: string;
  started_at: Date;
  finished_at: Date | null;
};

/** Pairs of runs of the same unit (job × chain, or a whole job) whose [start, finish) overlap: must be none. */
export function overlaps(runs: UnitRun[]): string[] {
  const found: string[] = [];
  const byUnit = new Map<string, UnitRun[]>();
  for (const r of runs) byUnit.set(`${r.job}:${r.chain_id}`, [...(byUnit.get(`${r.job}:${r.chain_id}`) ?? []), r]);
  for (const [unit, list] of byUnit) {
    list.sort((a, b) => a.started_at.getTime() - b.started_at.getTime());
    for (let i = 1; i < list.length; i++) {
      const previousEnd = list[i - 1]!.finished_at?.getTime() ?? Number.POSITIVE_INFINITY;
      if (list[i]!.started_at.getTime() < previousEnd)
        found.push(`${unit}: ${list[i - 1]!.runner} and ${list[i]!.runner} at ${list[i]!.started_at.toISOString()}`);
    }
  }
  return found;
}
