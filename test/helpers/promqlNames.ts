/** PromQL functions, aggregations and keywords that look like identifiers (those the alert files use, and the common ones). */
const PROMQL_WORDS = new Set([
  'sum',
  'min',
  'max',
  'avg',
  'count',
  'stddev',
  'stdvar',
  'topk',
  'bottomk',
  'quantile',
  'count_values',
  'group',
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'and',
  'or',
  'unless',
  'bool',
  'offset',
  'rate',
  'irate',
  'increase',
  'delta',
  'idelta',
  'deriv',
  'predict_linear',
  'abs',
  'absent',
  'absent_over_time',
  'clamp',
  'clamp_min',
  'clamp_max',
  'histogram_quantile',
  'avg_over_time',
  'max_over_time',
  'min_over_time',
  'sum_over_time',
  'count_over_time',
  'last_over_time',
  'changes',
  'resets',
  'time',
  'timestamp',
  'vector',
  'scalar',
  'label_replace',
  'label_join',
  'round',
  'ceil',
  'floor',
  'sort',
  'sort_desc',
  'e',
  'inf',
  'nan',
]);

/**
 * The metric names a PromQL expression reads: identifiers left once quoted strings, label matchers
 * (`{…}`), ranges (`[…]`), `by`/`without`/`on`/`ignoring` label lists and numbers are taken out,
 * and PromQL's own words are set aside.
 */
export function promqlMetricNames(expr: string): string[] {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, ' ')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\b\d[\d.eE+-]*\b/g, ' ');
  const names = stripped.match(/[a-zA-Z_:][a-zA-Z0-9_:]*/g) ?? [];
  return [...new Set(names.filter((n) => !PROMQL_WORDS.has(n.toLowerCase())))];
}
