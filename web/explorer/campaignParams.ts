/** One decoded campaign parameter as the campaign page shows it. */
export type ParamValue =
  | { kind: 'address'; address: string }
  /** A long hex value (a market or pool id, extra data): shortened, whole on hover, with a copy button. */
  | { kind: 'id'; hex: string }
  | { kind: 'text'; text: string; mono?: boolean }
  | { kind: 'list'; items: ParamValue[] };
export type ParamRow = { key: string; label: string; value: ParamValue };

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const HEX = /^0x[0-9a-fA-F]*$/;
/** The raw encoding the decoded parameters come from: shown apart, once (rawCampaignData). */
const RAW_KEY = 'campaignData';

/** What the campaign is on comes first (the rest keeps the API's order). */
const FIRST = ['targetToken', 'pool', 'market', 'marketId', 'poolId', 'computeChainId'];
/** The API's key for data of a type it has no layout for (domain/campaignData/decodeCampaignData.ts). */
const UNDECODED_KEY = 'raw';

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
    if (HEX.test(value) && value.length > 18) return { kind: 'id', hex: value };
    return { kind: 'text', text: value, mono: HEX.test(value) };
  }
  // Pool weights are in base 10 000 (docs/contracts.md#campaign-data-encodings): 3000 is 30 %.
  if (typeof value === 'number' && /^weight/.test(key)) return { kind: 'text', text: `${value / 100}%` };
  if (typeof value === 'number' && /^is[A-Z]/.test(key)) return { kind: 'text', text: value ? 'yes' : 'no' };
  if (typeof value === 'boolean') return { kind: 'text', text: value ? 'yes' : 'no' };
  if (value === null || value === undefined) return { kind: 'text', text: 'none' };
  return { kind: 'text', text: typeof value === 'object' ? JSON.stringify(value) : String(value), mono: true };
}

/** The 32-byte words of a hex string (lower case, no 0x), or null when it is not whole words. */
function words(hex: string): string[] | null {
  const body = hex.slice(2).toLowerCase();
  if (!HEX.test(hex) || body.length === 0 || body.length % 64 !== 0) return null;
  return body.match(/.{64}/g);
}

/** One word as an address when its first 12 bytes are zero, else as a 32-byte id. */
function wordValue(word: string, addressKey: string, idKey: string): [string, string] {
  return /^0{24}/.test(word) && !/^0{64}$/.test(word) ? [addressKey, `0x${word.slice(24)}`] : [idKey, `0x${word}`];
}

/**
 * Pure: the parameters of a campaign type the API serves undecoded (`{ raw }`: no layout of its
 * own, docs/contracts.md#campaign-data-encodings), read from its words: a Morpho Blue campaign names
 * its market (`abi.encode(bytes32 marketId)`, or a market address), a Uniswap V4 campaign its pool
 * id (the PoolKey's hash, first word), an Ajna campaign its pool (an address); any other type its
 * target when its data is one address word. Further words stay as data. Null when nothing is readable.
 */
export function decodeRawParams(type: string, raw: unknown): Record<string, string> | null {
  if (typeof raw !== 'string') return null;
  const ws = words(raw);
  if (!ws) return null;
  const [first, ...rest] = ws as [string, ...string[]];
  const named: [string, string] | null =
    type === 'MORPHO'
      ? wordValue(first, 'market', 'marketId')
      : type === 'UNISWAP_V4'
        ? wordValue(first, 'pool', 'poolId')
        : type === 'AJNA'
          ? wordValue(first, 'pool', 'poolId')
          : ws.length === 1 && /^0{24}/.test(first) && !/^0{64}$/.test(first)
            ? ['target', `0x${first.slice(24)}`]
            : null;
  if (!named) return null;
  return Object.fromEntries([named, ...(rest.length ? [['furtherData', `0x${rest.join('')}`]] : [])]);
}

/**
 * Pure: a campaign's decoded parameters (the API's `params`) as labelled rows, without the raw
 * encoding; for a type the API leaves undecoded (`{ raw }`), what its words name (decodeRawParams).
 */
export function paramRows(params: Record<string, unknown> | null | undefined, type = ''): ParamRow[] {
  const rank = (key: string) => (FIRST.includes(key) ? FIRST.indexOf(key) : FIRST.length);
  const decoded = params ? decodeRawParams(type, params[UNDECODED_KEY]) : null;
  const shown: Record<string, unknown> = decoded ? { ...params, ...decoded } : { ...params };
  if (decoded) delete shown[UNDECODED_KEY];
  return Object.entries(shown)
    .filter(([key]) => key !== RAW_KEY)
    .sort(([a], [b]) => rank(a) - rank(b))
    .map(([key, value]) => ({ key, label: paramLabel(key), value: toValue(key, value) }));
}

/** Pure: the raw `campaignData` hex the parameters were decoded from, when the API gives it. */
export function rawCampaignData(params: Record<string, unknown> | null | undefined): string | null {
  const raw = params?.[RAW_KEY] ?? params?.[UNDECODED_KEY];
  return typeof raw === 'string' && raw.length > 2 ? raw : null;
}
