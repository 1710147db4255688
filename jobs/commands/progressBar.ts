/** Pure: 42 → "42s", 125 → "2m05s", 3725 → "1h02m"; null → "?". */
export function formatDuration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '?';
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

export type ProgressState = { label: string; unit: string; done: number; total: number; ratePerSecond: number | null };

/**
 * Pure: one progress line, e.g.
 * `campaigns chain 31337 [############------------]  50.0% 500/1000 blocks 250/s ETA 2s`.
 * `width` 0 leaves the bar out (log lines).
 */
export function formatProgress({ label, unit, done, total, ratePerSecond }: ProgressState, width = 24): string {
  const fraction = total > 0 ? Math.min(1, Math.max(0, done / total)) : 1;
  const filled = Math.round(fraction * width);
  const bar = width > 0 ? ` [${'#'.repeat(filled)}${'-'.repeat(width - filled)}]` : '';
  const eta = ratePerSecond && ratePerSecond > 0 ? (total - done) / ratePerSecond : done >= total ? 0 : null;
  const rate =
    ratePerSecond === null
      ? '?'
      : ratePerSecond >= 10
        ? Math.round(ratePerSecond).toString()
        : ratePerSecond.toFixed(1);
  return `${label}${bar} ${(fraction * 100).toFixed(1).padStart(5)}% ${done}/${total} ${unit} ${rate}/s ETA ${formatDuration(eta)}`;
}

export type ProgressBar = { update(done: number, total?: number): void; finish(message?: string): void };

export type CreateProgressBarParams = {
  stream: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  label: string;
  unit: string;
  total: number;
  /** Log-line mode (not a TTY): at most one line per interval, plus the last. */
  intervalMs?: number;
  now?: () => number;
};

/**
 * A progress bar on `stream`: redrawn in place (at most every 100 ms) when the stream is a TTY,
 * otherwise plain lines at most every `intervalMs` so logs and CI output stay readable.
 */
export function createProgressBar({
  stream,
  label,
  unit,
  total,
  intervalMs = 2000,
  now = Date.now,
}: CreateProgressBarParams): ProgressBar {
  const tty = stream.isTTY === true;
  const started = now();
  let state: ProgressState = { label, unit, done: 0, total, ratePerSecond: null };
  let lastDraw = -Infinity;
  let lastLine = '';
  const draw = (force: boolean) => {
    const t = now();
    if (!force && t - lastDraw < (tty ? 100 : intervalMs)) return;
    const line = tty
      ? formatProgress(state, Math.max(10, Math.min(40, (stream.columns ?? 80) - 70)))
      : formatProgress(state, 0);
    if (force && line === lastLine) return; // finishing on the line already shown
    lastDraw = t;
    lastLine = line;
    stream.write(tty ? `\r${line}\x1b[K` : `${line}\n`);
  };
  return {
    update(done, newTotal = state.total) {
      const elapsed = (now() - started) / 1000;
      state = { ...state, done, total: newTotal, ratePerSecond: elapsed > 0 ? done / elapsed : null };
      draw(false);
    },
    finish(message) {
      draw(true);
      if (tty) stream.write('\n');
      if (message) stream.write(`${message}\n`);
    },
  };
}
