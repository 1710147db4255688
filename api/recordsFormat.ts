import type { Context } from 'koa';

/**
 * CSV or JSON of a history answer: `format` when the URL names it, else by Accept (text/csv named
 * explicitly; `*\/*` stays JSON). Every answer carries `Vary: Accept`: these answers are publicly
 * cacheable, and a cache keyed on the URL alone served the JSON the chart had loaded to the CSV button.
 */
export function recordsFormat(ctx: Context, format: 'csv' | 'json' | undefined): 'csv' | 'json' {
  ctx.vary('Accept');
  if (format) return format;
  return ctx.accepts('application/json', 'text/csv') === 'text/csv' && /text\/csv/.test(ctx.get('accept'))
    ? 'csv'
    : 'json';
}
