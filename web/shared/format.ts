const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 2 });
const plain = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/** 1234567 → "$1.23M"; null → "–". */
export function formatUsd(value: number | string | null | undefined): string {
  const n = typeof value === 'string' ? Number(value) : value;
  return n === null || n === undefined || !Number.isFinite(n) ? '–' : `$${compact.format(n)}`;
}

/**
 * An abbreviated address or id in a name ("Provide 0x742a…49f6", a pool without a symbol) kept on one
 * line: a word joiner (U+2060) after the ellipsis, where browsers would otherwise allow a line break.
 */
export function keepIdsWhole(text: string): string {
  return text.replace(/(0x[0-9a-fA-F]+…)(?=[0-9a-fA-F])/g, '$1\u2060');
}

/** 1234.567 → "$1,234.57" (tables, where the figure is read rather than compared); null → "–". */
export function formatUsdExact(value: number | null | undefined): string {
  return value === null || value === undefined || !Number.isFinite(value) ? '–' : `$${plain.format(value)}`;
}

/** 1234 → "1,234". */
export function formatCount(value: number): string {
  return plain.format(value);
}

/** 12.345 → "12.35%"; null → "–". */
export function formatPercent(value: number | string | null | undefined): string {
  const n = typeof value === 'string' ? Number(value) : value;
  return n === null || n === undefined || !Number.isFinite(n) ? '–' : `${plain.format(n)}%`;
}

/** Compact number for axis labels and bins: 1500 → "1.5K". */
export function formatCompact(value: number): string {
  return compact.format(value);
}

/** A uint256 amount in base units as a decimal string of whole tokens: ("1500000000000000000", 18) → "1.5". */
export function formatAmount(raw: string, decimals: number): string {
  if (!/^\d+$/.test(raw)) return raw;
  const padded = raw.padStart(decimals + 1, '0');
  const whole = padded.slice(0, padded.length - decimals);
  const fraction = padded
    .slice(padded.length - decimals)
    .replace(/0+$/, '')
    .slice(0, 6);
  return `${BigInt(whole).toLocaleString('en-US')}${fraction ? `.${fraction}` : ''}`;
}

/** Unix seconds (number or string) → "2026-11-21 14:00 UTC"; empty → "–". */
export function formatTime(seconds: number | string | null | undefined): string {
  const n = Number(seconds);
  if (seconds === null || seconds === undefined || seconds === '' || !Number.isFinite(n)) return '–';
  return `${new Date(n * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** Milliseconds → "850 ms" / "2.4 s" / "3m05s". */
export function formatDurationMs(ms: number | null): string {
  if (ms === null) return '–';
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}
