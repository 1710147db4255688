import { CAMPAIGN_TYPE_NAMES } from '../../../../domain/campaignTypes.js';
import { campaignDataSchema } from '../../../../domain/campaignData/schemas.js';
import { TEMPLATES } from '../../../../domain/templates.js';
import { COMMON_KEYS } from './commonKeys.js';

type DataSchema = { title?: string; properties?: Record<string, { type?: string }>; required?: string[] };

const fieldList = (schema: DataSchema): string =>
  Object.entries(schema.properties ?? {})
    .map(([name]) => `\`${name}\`${schema.required?.includes(name) ? ' (required)' : ''}`)
    .join(', ');

/**
 * The `campaignsParams` keys and, per campaign type, the fields of each campaign object, in words:
 * read from what buildCampaigns validates with (campaignDataSchema per type, COMMON_KEYS, the
 * templates), so the documentation cannot drift from the check. Types sharing a data schema are
 * listed together.
 */
export function campaignsParamsDescription(): string {
  const byTitle = new Map<string, { schema: DataSchema; types: string[] }>();
  for (const name of Object.values(CAMPAIGN_TYPE_NAMES).filter((n) => n !== 'INVALID')) {
    const schema = campaignDataSchema(name) as DataSchema;
    const group = byTitle.get(schema.title ?? name) ?? { schema, types: [] };
    group.types.push(name);
    byTitle.set(schema.title ?? name, group);
  }
  const types = [...byTitle.values()].map(
    ({ schema, types: names }) =>
      `- ${names.map((n) => `\`${n}\``).join(', ')}: ${fieldList(schema)}${schema.title === 'Raw campaign data' ? ' (ABI-encoded campaign data), or `market` / `targetAddress`: one address, encoded for you' : ''}`,
  );
  return [
    'Campaigns to create, grouped by kind. Each key is a campaign type name (`ERC20`, `CLAMM`…), its numeric id (`1`, `2`…) or a template id (' +
      TEMPLATES.map((t) => `\`${t.id}\``).join(', ') +
      ', see GET /v4/templates); its value lists 1 to 100 campaign objects.',
    `Every campaign object has \`amount\` (required; reward token base units, a decimal string) and may have ${[
      ...COMMON_KEYS,
    ]
      .filter((k) => k !== 'amount')
      .map((k) => `\`${k}\``)
      .join(
        ', ',
      )} (\`startTimestamp\`/\`endTimestamp\` default to the body's; \`duration\` in seconds replaces \`endTimestamp\`; \`distributionMethodParameters\` follows GET /v4/schemas, group distributionMethod). Its other fields are the campaign data of its type (GET /v4/schemas, group campaignType):`,
    ...types,
    "A template key starts from the template's campaign data. Errors name the campaign field, e.g. `campaignsParams.ERC20.0.targetToken`.",
  ].join('\n');
}
