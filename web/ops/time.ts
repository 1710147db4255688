/** ISO time as `2026-11-27 03:12:56Z` (seconds, UTC), or `never`. */
export const time = (iso: string | null) => (iso ? iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z') : 'never');

/** A span of seconds in the largest sensible unit: `42 s`, `3 min 5 s`, `2 h 4 min`, `3 d 2 h`. */
export function span(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ''}`;
  if (s < 86_400)
    return `${Math.floor(s / 3600)} h${Math.floor((s % 3600) / 60) ? ` ${Math.floor((s % 3600) / 60)} min` : ''}`;
  return `${Math.floor(s / 86_400)} d${Math.floor((s % 86_400) / 3600) ? ` ${Math.floor((s % 86_400) / 3600)} h` : ''}`;
}

/** `in 4 s` / `12 s ago` relative to now. */
export function relative(iso: string, now = Date.now()): string {
  const seconds = (Date.parse(iso) - now) / 1000;
  return seconds >= 0 ? `in ${span(seconds)}` : `${span(-seconds)} ago`;
}
