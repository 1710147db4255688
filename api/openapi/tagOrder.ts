/**
 * The order of the OpenAPI document's tags, and so of the sections of /docs and Swagger UI: what
 * people using the API do first (find opportunities, read campaigns, rewards and users), then
 * reference data, integration (events, webhooks, configuration), accounts, and the back office last.
 * Alphabetical order put the back office's "accounting" first (#44).
 */
export const TAG_ORDER: readonly { name: string; description: string }[] = [
  { name: 'opportunities', description: 'Where rewards are: search, totals, distributions, history' },
  { name: 'campaigns', description: 'Incentive campaigns: search, detail, metrics, families, payloads' },
  { name: 'rewards', description: "Rewards per user and per campaign, with the trees' proofs" },
  { name: 'users', description: "A wallet's rewards, claims and campaign conditions" },
  { name: 'claims', description: 'What users claimed on chain' },
  { name: 'tokens', description: 'Reward and target tokens' },
  { name: 'prices', description: 'Token prices and their history' },
  { name: 'protocols', description: 'Protocols and their live figures' },
  { name: 'chains', description: 'Indexed chains' },
  { name: 'creators', description: 'Campaign creators and their dashboards' },
  { name: 'campaign-lists', description: 'Named lists of campaigns' },
  { name: 'historical', description: 'Historical figures' },
  { name: 'roots', description: 'Merkle roots of the reward trees' },
  { name: 'events', description: 'Live events (server-sent) and their history' },
  { name: 'webhooks', description: 'Webhook subscriptions and deliveries' },
  { name: 'config', description: 'Campaign configurations and their hashes' },
  { name: 'templates', description: 'Campaign templates' },
  { name: 'schemas', description: 'JSON schemas of campaign data' },
  { name: 'enums', description: 'Enumerations the API uses' },
  { name: 'block-timestamp', description: 'Blocks around a timestamp' },
  { name: 'key-value-stores', description: 'Key-value stores of creators' },
  { name: 'overrides', description: 'Campaign overrides' },
  { name: 'sofr-ratchet', description: 'SOFR spread ratchet' },
  { name: 'diffs', description: 'Differences between reward trees' },
  { name: 'developer', description: 'Developer accounts' },
  { name: 'api-keys', description: 'API keys' },
  { name: 'auth', description: 'Sign-in' },
  { name: 'organizations', description: 'Organizations' },
  { name: 'credits', description: 'Credits' },
  { name: 'health', description: 'Service health' },
  { name: 'node', description: 'Node information' },
  { name: 'openapi.json', description: 'This document' },
  { name: 'internal', description: 'Back office: jobs, dependencies, operations' },
  { name: 'accounting', description: 'Back office: accounting' },
];

/** Tags after every tag this list does not name (the back office stays last when a new family appears). */
const BACK_OFFICE = new Set(['internal', 'accounting']);

/**
 * Pure: the given tag names in TAG_ORDER, each with its description; a tag the list does not name
 * goes after the listed ones but before the back office (alphabetically among such tags).
 */
export function orderTags(names: Iterable<string>): { name: string; description?: string }[] {
  const rank = (name: string) => {
    const i = TAG_ORDER.findIndex((t) => t.name === name);
    if (i < 0) return TAG_ORDER.length - BACK_OFFICE.size - 0.5;
    return BACK_OFFICE.has(name) ? TAG_ORDER.length + i : i;
  };
  return [...new Set(names)]
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
    .map((name) => {
      const description = TAG_ORDER.find((t) => t.name === name)?.description;
      return description ? { name, description } : { name };
    });
}
