/** One decoded campaign parameter as the campaign page shows it. */
export type ParamValue =
  | { kind: 'address'; address: string }
  | { kind: 'text'; text: string; mono?: boolean }
  | { kind: 'list'; items: ParamValue[] };
export type ParamRow = { key: string; label: string; value: ParamValue };

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const HEX = /^0x[0-9a-fA-F]*$/;
/** The raw encoding the decoded parameters come from: shown apart, once (rawCampaignData). */
const RAW_KEY = 'campaignData';

/** What the campaign is on comes first (the rest keeps the API's order). */
const FIRST = ['targetToken', 'pool', 'computeChainId'];

/** Pure: "targetToken" → "Target token", "isOutOfRangeIncentivized" → "Is out of range incentivized", "url" → "URL". */
export function paramLabel(key: string): string {
  if (key === 'url') return 'URL';
  const words = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function toValue(key: string, value: unknown): ParamValue {
  if (Array.isArray(value))
    return value.length ? { kind: 'list', items: value.map((v) => toValue(key, v)) } : { kind: 'text', text: 'none' };
  if (typeof value === 'string') {
    if (ADDRESS.test(value)) return { kind: 'address', address: value };
    if (value === '' || value === '0x') return { kind: 'text', text: 'none' };
    return { kind: 'text', text: value, mono: HEX.test(value) };
  }
  // Pool weights are in base 10 000 (docs/contracts.md#campaign-data-encodings): 3000 is 30 %.
  if (typeof value === 'number' && /^weight/.test(key)) return { kind: 'text', text: `${value / 100}%` };
  if (typeof value === 'number' && /^is[A-Z]/.test(key)) return { kind: 'text', text: value ? 'yes' : 'no' };
  if (typeof value === 'boolean') return { kind: 'text', text: value ? 'yes' : 'no' };
  if (value === null || value === undefined) return { kind: 'text', text: 'none' };
  return { kind: 'text', text: typeof value === 'object' ? JSON.stringify(value) : String(value), mono: true };
}

/** Pure: a campaign's decoded parameters (the API's `params`) as labelled rows, without the raw encoding. */
export function paramRows(params: Record<string, unknown> | null | undefined): ParamRow[] {
  const rank = (key: string) => (FIRST.includes(key) ? FIRST.indexOf(key) : FIRST.length);
  return Object.entries(params ?? {})
    .filter(([key]) => key !== RAW_KEY)
    .sort(([a], [b]) => rank(a) - rank(b))
    .map(([key, value]) => ({ key, label: paramLabel(key), value: toValue(key, value) }));
}

/** Pure: the raw `campaignData` hex the parameters were decoded from, when the API gives it. */
export function rawCampaignData(params: Record<string, unknown> | null | undefined): string | null {
  const raw = params?.[RAW_KEY];
  return typeof raw === 'string' && raw.length > 2 ? raw : null;
}
