import cron from 'node-cron';

/**
 * The next `count` times a node-cron expression fires after now, as the scheduler's task for it
 * would (same library, same local time zone). A task is created only to ask it and destroyed at
 * once: it is never started, so nothing runs.
 * @throws for an invalid expression (callers pass effective schedules, validated when set).
 */
export function nextRuns(expression: string, count: number): Date[] {
  const task = cron.createTask(expression, () => {});
  try {
    return task.getNextRuns(count);
  } finally {
    void task.destroy();
  }
}

/**
 * The next run and the longest gap between the next few runs (an expression such as weekdays only
 * has gaps of different lengths; the longest is the fair measure of "overdue"). Null for an
 * expression node-cron refuses.
 */
export function scheduleTimes(expression: string): { nextRunAt: Date; intervalMs: number } | null {
  if (!cron.validate(expression)) return null;
  const runs = nextRuns(expression, 4);
  const gaps = runs.slice(1).map((run, i) => run.getTime() - runs[i]!.getTime());
  return { nextRunAt: runs[0]!, intervalMs: Math.max(...gaps) };
}
