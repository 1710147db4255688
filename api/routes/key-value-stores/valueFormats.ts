import { STORE_TYPES as STORE_TYPE_DESCRIPTIONS } from '../../reads/enums/registry.js';
import { STORE_TYPES, VALUE_SCHEMAS, type StoreType } from './schema.js';

type Property = {
  type?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  maxLength?: number;
};

/** One property of a value schema in words: `multiplier` (number, > 0, ≤ 100). */
function propertyText(name: string, p: Property, required: boolean): string {
  const bounds = [
    p.exclusiveMinimum !== undefined ? `> ${p.exclusiveMinimum}` : p.minimum !== undefined ? `≥ ${p.minimum}` : '',
    p.maximum !== undefined ? `≤ ${p.maximum}` : '',
    p.maxLength !== undefined ? `at most ${p.maxLength} characters` : '',
    p.pattern === '^0x[a-fA-F0-9]{40}$' ? '20-byte hex address' : '',
    name === 'expiresAt' || name === 'until' ? 'Unix seconds' : '',
  ].filter(Boolean);
  return `\`${name}\` (${[p.type, ...bounds].join(', ')}${required ? ', required' : ''})`;
}

/**
 * The entry value format of each store type, in words, read from VALUE_SCHEMAS (what entryProblem
 * validates), so the documentation cannot drift from the check. A Markdown list, one type a line.
 */
export function storeValueFormats(): string {
  return STORE_TYPES.map((type) => {
    const schema = VALUE_SCHEMAS[type] as { properties: Record<string, Property>; required?: string[] };
    const fields = Object.entries(schema.properties).map(([name, p]) =>
      propertyText(name, p, schema.required?.includes(name) ?? false),
    );
    return `- **${type}** (${STORE_TYPE_DESCRIPTIONS[type]}): an object with ${fields.join(', ')}, nothing else; e.g. \`${JSON.stringify(VALUE_EXAMPLES[type])}\`${type === 'APR' ? '; the entry address is a 32-byte campaign id' : ''}`;
  }).join('\n');
}

/** An example value per store type (checked against VALUE_SCHEMAS by the OpenAPI manual test). */
export const VALUE_EXAMPLES: Record<StoreType, Record<string, unknown>> = {
  WHITELIST: { label: 'early user', expiresAt: 1_767_225_600 },
  BLACKLIST: { reason: 'sybil cluster' },
  BOOST: { multiplier: 1.5, expiresAt: 1_767_225_600 },
  REFERRER: { referrer: '0x8f3Cf7ad23Cd3CaDbD9735AFf958023239c6A063' },
  FORWARDER: { recipient: '0x8f3Cf7ad23Cd3CaDbD9735AFf958023239c6A063', sharePercent: 50 },
  APR: { apr: 12.5, until: 1_767_225_600 },
};

const WALLET = '0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174';
const CAMPAIGN_ID = '0x6d3bbd2f0f6b3f1c9a4e2b8d7c5a1e0f3b2d4c6e8a0b1c3d5e7f9a2b4c6d8e0f';

/** Request-body examples of the entry upsert, one per store type. */
export function entryBodyExamples(): Record<string, { summary: string; value: unknown }> {
  return Object.fromEntries(
    STORE_TYPES.map((type) => [
      type,
      {
        summary: `An entry of a ${type} store`,
        value: { address: type === 'APR' ? CAMPAIGN_ID : WALLET, value: JSON.stringify(VALUE_EXAMPLES[type]) },
      },
    ]),
  );
}
