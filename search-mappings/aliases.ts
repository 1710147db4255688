import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { estypes } from '@elastic/elasticsearch';
import type { EsClient } from '../internal/es.js';
import { indexNames } from '../internal/es.js';
import type { Logger } from '../internal/logger.js';

export const INDEX_FAMILIES = ['campaigns', 'opportunities'] as const;
export type IndexFamily = (typeof INDEX_FAMILIES)[number];

const DIR = fileURLToPath(new URL('.', import.meta.url));

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(`${DIR}${path}`, 'utf8'));
}

/** Replaces every `{ "$partial": "name" }` with the content of partials/name.json (pelias/schema style). */
function resolvePartials(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(resolvePartials);
  if (node && typeof node === 'object') {
    const record = node as Record<string, unknown>;
    if (typeof record['$partial'] === 'string') return resolvePartials(readJson(`partials/${record['$partial']}.json`));
    return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, resolvePartials(v)]));
  }
  return node;
}

/** The newest mapping version shipped for a family (highest vN.json). */
export function latestVersion(family: IndexFamily): number {
  const versions = readdirSync(`${DIR}${family}`)
    .map((f) => /^v(\d+)\.json$/.exec(f)?.[1])
    .filter((v): v is string => v !== undefined)
    .map(Number);
  if (!versions.length) throw new Error(`no mapping versions in search-mappings/${family}`);
  return Math.max(...versions);
}

/** Settings and mappings of one frozen index version, partials resolved. */
export function loadIndexDefinition(
  family: IndexFamily,
  version: number,
): { settings: Record<string, unknown>; mappings: Record<string, unknown> } {
  return resolvePartials(readJson(`${family}/v${version}.json`)) as {
    settings: Record<string, unknown>;
    mappings: Record<string, unknown>;
  };
}

/** Fails unless the server is Elasticsearch 8.x (pelias/schema checks the version before creating). */
export async function assertServerVersion(es: EsClient): Promise<string> {
  const info = (await es.nodes.info({ filter_path: 'nodes.*.version' })) as unknown as {
    nodes?: Record<string, { version: string }>;
  };
  const nodes = Object.values(info.nodes ?? {});
  const version = nodes[0]?.version ?? 'unknown';
  if (!version.startsWith('8.')) throw new Error(`Elasticsearch 8.x required, server is ${version}`);
  return version;
}

/** Shards and replicas of an index (ES_SHARDS, ES_REPLICAS); absent: the mapping file's (1 shard, no replica). */
export type IndexShape = { shards: number; replicas: number };

/** Pure: the index settings of a shape, to lay over a mapping file's settings. */
export function shapeSettings(shape?: IndexShape): Record<string, unknown> {
  return shape ? { number_of_shards: shape.shards, number_of_replicas: shape.replicas } : {};
}

export type EnsureIndicesParams = { es: EsClient; prefix: string; logger: Logger; shape?: IndexShape };

/**
 * Creates the newest version of every index family with its read and write aliases, unless the
 * read alias exists already. With a shape, a new index gets its shards and replicas, and an
 * existing one gets its replica count (a live setting); a different shard count needs a rebuild
 * (`npm run es:reindex`), which is logged. Idempotent and safe to run concurrently.
 * @returns the concrete index each read alias points to.
 */
export async function ensureIndices({
  es,
  prefix,
  logger,
  shape,
}: EnsureIndicesParams): Promise<Record<IndexFamily, string>> {
  await assertServerVersion(es);
  const result = {} as Record<IndexFamily, string>;
  for (const family of INDEX_FAMILIES) {
    const version = latestVersion(family);
    const names = indexNames(prefix, family, version);
    const existing = await es.indices.getAlias({ name: names.read }, { ignore: [404] });
    const current = Object.keys(existing ?? {}).find((k) => k !== 'error' && k !== 'status');
    if (current) {
      if (shape) await applyShape({ es, index: current, shape, logger });
      result[family] = current;
      continue;
    }
    await createIndexVersion({ es, prefix, family, version, shape });
    await es.indices.updateAliases({
      actions: [
        { add: { index: names.concrete!, alias: names.read } },
        { add: { index: names.concrete!, alias: names.write, is_write_index: true } },
      ],
    });
    logger.info({ msg: 'search index created', family, index: names.concrete });
    result[family] = names.concrete!;
  }
  return result;
}

/** Sets an existing index's replica count to the shape's; warns when its shard count differs (fixed at creation). */
async function applyShape({
  es,
  index,
  shape,
  logger,
}: {
  es: EsClient;
  index: string;
  shape: IndexShape;
  logger: Logger;
}): Promise<void> {
  const res = await es.indices.getSettings({ index, filter_path: '*.settings.index.number_of_*' });
  const settings = Object.values(res)[0]?.settings?.index;
  const shards = Number(settings?.number_of_shards);
  const replicas = Number(settings?.number_of_replicas);
  if (replicas !== shape.replicas) {
    await es.indices.putSettings({ index, settings: { number_of_replicas: shape.replicas } });
    logger.info({ msg: 'search index replicas changed', index, from: replicas, to: shape.replicas });
  }
  if (shards !== shape.shards)
    logger.warn({
      msg: 'search index has another shard count than ES_SHARDS; run `npm run es:reindex` to rebuild it',
      index,
      shards,
      configured: shape.shards,
    });
}

/** Creates one concrete index version from its frozen mapping file (no alias), with `shape`'s shards and replicas when given. */
export async function createIndexVersion({
  es,
  prefix,
  family,
  version,
  shape,
}: {
  es: EsClient;
  prefix: string;
  family: IndexFamily;
  version: number;
  shape?: IndexShape;
}): Promise<string> {
  const index = indexNames(prefix, family, version).concrete!;
  const def = loadIndexDefinition(family, version);
  const settings = { ...def.settings, ...shapeSettings(shape) };
  await es.indices.create({ index, settings, mappings: def.mappings }, { ignore: [400] }).then((res) => {
    const err = (res as { error?: { type?: string } }).error;
    if (err && err.type !== 'resource_already_exists_exception')
      throw new Error(`creating ${index} failed: ${JSON.stringify(err)}`);
  });
  return index;
}

/**
 * Pure: name of a concrete index. The first build of mapping version N is `<prefix>-<family>_vN`
 * (what ensureIndices creates); every rebuild of the same version by a reindex adds a counter,
 * `<prefix>-<family>_vN_r<K>` with K ≥ 1, so a name is never reused while an older build exists.
 */
export function concreteIndexName(prefix: string, family: IndexFamily, version: number, rebuild = 0): string {
  return `${prefix}-${family}_v${version}${rebuild > 0 ? `_r${rebuild}` : ''}`;
}

/** Pure: version and rebuild counter of a concrete index name of this prefix and family, or null. */
export function parseConcreteIndexName(
  prefix: string,
  family: IndexFamily,
  name: string,
): { version: number; rebuild: number } | null {
  if (!name.startsWith(`${prefix}-${family}_v`)) return null;
  const match = /^(\d+)(?:_r(\d+))?$/.exec(name.slice(`${prefix}-${family}_v`.length));
  return match ? { version: Number(match[1]), rebuild: Number(match[2] ?? 0) } : null;
}

/**
 * Pure: the concrete index a reindex builds next for mapping `version`: `_vN` when no build of N
 * exists yet (a new mapping file shipped), else `_vN_r<K>` with K one above the highest existing
 * rebuild of N (current, or left over by a crashed reindex), so it never collides.
 */
export function nextIndexName({
  prefix,
  family,
  version,
  existing,
}: {
  prefix: string;
  family: IndexFamily;
  version: number;
  existing: readonly string[];
}): string {
  const builds = existing
    .map((name) => parseConcreteIndexName(prefix, family, name))
    .filter((b) => b?.version === version);
  if (!builds.length) return concreteIndexName(prefix, family, version);
  return concreteIndexName(prefix, family, version, Math.max(...builds.map((b) => b!.rebuild)) + 1);
}

/** Concrete indices of one family (exact name pattern, so other prefixes never match) and the aliases on each. */
export async function listFamilyIndices({
  es,
  prefix,
  family,
}: {
  es: EsClient;
  prefix: string;
  family: IndexFamily;
}): Promise<{ index: string; aliases: string[] }[]> {
  const res = await es.indices.getAlias(
    { index: `${prefix}-${family}_v*`, expand_wildcards: 'all' },
    { ignore: [404] },
  );
  return Object.entries(res as Record<string, { aliases?: Record<string, unknown> }>)
    .filter(([index]) => parseConcreteIndexName(prefix, family, index) !== null)
    .map(([index, value]) => ({ index, aliases: Object.keys(value.aliases ?? {}) }));
}

/** Creates a concrete index with the settings and mappings of mapping `version`, plus `settings` overrides (no alias). */
export async function createIndex({
  es,
  family,
  version,
  index,
  settings = {},
}: {
  es: EsClient;
  family: IndexFamily;
  version: number;
  index: string;
  settings?: Record<string, unknown>;
}): Promise<void> {
  const def = loadIndexDefinition(family, version);
  await es.indices.create({ index, settings: { ...def.settings, ...settings }, mappings: def.mappings });
}

/**
 * Moves the read alias and the write alias (is_write_index) of a family to `to`, in ONE `_aliases`
 * call: Elasticsearch applies it atomically, so every search resolves the read alias to exactly one
 * of the two indices and no read fails or sees a half-moved state.
 */
export async function swapAliases({
  es,
  prefix,
  family,
  to,
}: {
  es: EsClient;
  prefix: string;
  family: IndexFamily;
  to: string;
}): Promise<void> {
  const names = indexNames(prefix, family);
  const holders = await es.indices.getAlias({ name: `${names.read},${names.write}` }, { ignore: [404] });
  const actions: estypes.IndicesUpdateAliasesAction[] = [];
  for (const [index, value] of Object.entries(holders as Record<string, { aliases?: Record<string, unknown> }>)) {
    if (index === to || !value.aliases) continue;
    for (const alias of Object.keys(value.aliases)) actions.push({ remove: { index, alias } });
  }
  actions.push(
    { add: { index: to, alias: names.read } },
    { add: { index: to, alias: names.write, is_write_index: true } },
  );
  await es.indices.updateAliases({ actions });
}

/** Deletes every index of this prefix (tests and the dev quick start's reset only). */
export async function deleteIndices({ es, prefix }: { es: EsClient; prefix: string }): Promise<void> {
  await es.indices.delete({ index: `${prefix}-*`, expand_wildcards: 'all' }, { ignore: [404] });
}
