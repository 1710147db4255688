import type { Schema } from '../validate.js';

const ADDRESS = '0x8f3Cf7ad23Cd3CaDbD9735AFf958023239c6A063';
const BYTES32 = '0x6d3bbd2f0f6b3f1c9a4e2b8d7c5a1e0f3b2d4c6e8a0b1c3d5e7f9a2b4c6d8e0f';
const TIMESTAMP = 1_764_201_600; // 2025-11-27T00:00:00Z

/**
 * Example strings by property name (first match wins); used only where they fit the property's
 * schema, so a name never forces a wrong value.
 */
const STRING_BY_NAME: [RegExp, string][] = [
  [/^(id|campaignId|opportunityId|rewardTokenId|creatorId|rootCampaignId|parentCampaignId)$/, '7469316318419853391'],
  [/address$|^(creator|owner|recipient|user|token|rewardToken|identifier|explorerAddress)$/i, ADDRESS],
  [/hash$|^root$|^(onChainCampaignId|nonce)$/i, BYTES32],
  [/^(createdAt|updatedAt|revokedAt|date|at|startedAt|finishedAt|grantedAt)$/, '2025-11-27T00:00:00.000Z'],
  [/timestamp$|^(computedUntil|processingStarted)$/i, String(TIMESTAMP)],
  [/^(amount|value|total|balance|claimed|claimable|pending)$/i, '1000000000000000000000'],
  [/^symbol$|^displaySymbol$/, 'USDC'],
  [/^(name|title)$/, 'USDC vault on Ethereum'],
  [/^(icon|url|banner|depositUrl|authUrl)$/i, 'https://example.org/asset.svg'],
  [/^(type|typeName)$/, 'ERC20'],
  [/^(status|campaignStatus)$/, 'LIVE'],
  [/^(description|detail|message|reason)$/, 'Example text'],
  [/^key$/, `${ADDRESS}:allowlist`],
];

/** Strings tried, in order, for a pattern or format nothing else satisfied. */
const CANDIDATES = [
  ADDRESS,
  BYTES32,
  '7469316318419853391',
  '1',
  '1.5',
  '2025-11-27',
  '2025-11-27T00:00:00.000Z',
  '1-ERC20-0xabc',
  'ERC20',
  'example',
  'https://example.org',
  `${ADDRESS}:allowlist`,
  '0x',
];

const FORMAT: Record<string, string> = {
  'date-time': '2025-11-27T00:00:00.000Z',
  date: '2025-11-27',
  uri: 'https://example.org',
  uuid: '3f8c1e6a-2b4d-4c7e-9a1f-5d6e7f8a9b0c',
  email: 'integrator@example.org',
};

function fitsString(s: string, schema: Schema): boolean {
  if (typeof schema['pattern'] === 'string' && !new RegExp(schema['pattern'], 'u').test(s)) return false;
  if (typeof schema['minLength'] === 'number' && s.length < schema['minLength']) return false;
  if (typeof schema['maxLength'] === 'number' && s.length > schema['maxLength']) return false;
  return true;
}

function stringExample(schema: Schema, name: string | undefined): string {
  const format = typeof schema['format'] === 'string' ? FORMAT[schema['format']] : undefined;
  if (format) return format;
  const hinted = name ? STRING_BY_NAME.find(([re]) => re.test(name))?.[1] : undefined;
  if (hinted !== undefined && fitsString(hinted, schema)) return hinted;
  if (!schema['pattern'] && !schema['minLength']) return name ? `${name} text` : 'text';
  return CANDIDATES.find((c) => fitsString(c, schema)) ?? 'text';
}

function numberExample(schema: Schema, integer: boolean, name: string | undefined): number {
  const min = (schema['minimum'] as number | undefined) ?? (schema['exclusiveMinimum'] as number | undefined);
  const max = (schema['maximum'] as number | undefined) ?? (schema['exclusiveMaximum'] as number | undefined);
  let n = name && /timestamp$|At$/.test(name) ? TIMESTAMP : name && /chainId$/i.test(name) ? 1 : integer ? 1 : 12.5;
  if (min !== undefined && (n < min || (n === min && 'exclusiveMinimum' in schema))) n = integer ? min + 1 : min + 1.5;
  if (max !== undefined && (n > max || (n === max && 'exclusiveMaximum' in schema))) n = integer ? max - 1 : max / 2;
  if (min !== undefined && n < min) n = min;
  return n;
}

const typeOf = (schema: Schema): string | undefined => {
  const t = schema['type'];
  if (typeof t === 'string') return t;
  if (Array.isArray(t)) return t.find((x) => x !== 'null') as string | undefined;
  if (schema['properties'] || schema['additionalProperties']) return 'object';
  return undefined;
};

/**
 * An example value of a JSON Schema: the schema's own `examples[0]` (or `default`, `const`, first
 * `enum` value) where it has one, else one built from its type, bounds and the property's name.
 * Hand-written examples on shared schemas (Token, Campaign…) thus flow into every operation using
 * them; the generated document's examples are checked against their schemas by
 * test/unit/api/openapi/integratorManual.test.ts.
 */
export function exampleOf(schema: unknown, name?: string, depth = 0): unknown {
  if (!schema || typeof schema !== 'object' || depth > 12) return null;
  const s = schema as Schema;
  if (Array.isArray(s['examples']) && s['examples'].length) return structuredClone(s['examples'][0]);
  if ('const' in s) return s['const'];
  if (Array.isArray(s['enum'])) return s['enum'][0];
  if ('default' in s) return structuredClone(s['default']);
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = s[key] as Schema[] | undefined;
    if (options) return exampleOf(options.find((o) => o['type'] !== 'null') ?? options[0], name, depth + 1);
  }
  if (Array.isArray(s['allOf']))
    return Object.assign({}, ...(s['allOf'] as Schema[]).map((part) => exampleOf(part, name, depth + 1)));
  switch (typeOf(s)) {
    case 'string':
      return stringExample(s, name);
    case 'integer':
      return numberExample(s, true, name);
    case 'number':
      return numberExample(s, false, name);
    case 'boolean':
      return true;
    case 'array': {
      // Deep arrays and arrays of a `$ref` (a recursive tree's `subCampaigns`) stay empty where allowed, so examples end.
      const minItems = (s['minItems'] as number | undefined) ?? 0;
      const selfReference = Boolean((s['items'] as Schema | undefined)?.['$ref']);
      const count = depth > 3 || selfReference ? minItems : Math.max(1, minItems);
      return Array.from({ length: count }, () => exampleOf(s['items'] ?? {}, name, depth + 1));
    }
    case 'object': {
      const properties = (s['properties'] ?? {}) as Record<string, Schema>;
      const out: Record<string, unknown> = {};
      for (const [key, property] of Object.entries(properties)) out[key] = exampleOf(property, key, depth + 1);
      const extra = s['additionalProperties'];
      if (!Object.keys(properties).length && extra && typeof extra === 'object')
        out['key'] = exampleOf(extra, undefined, depth + 1);
      return out;
    }
    default:
      return {};
  }
}
