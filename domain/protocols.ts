import { foldText } from './foldText.js';
/** A protocol an opportunity belongs to (its record: PROTOCOL_RECORD_SCHEMA, domain/documents/recordSchemas.ts). */
export type Protocol = { id: string; name: string; icon: string; description: string; url: string; tags: string[] };

const protocol = (id: string, name: string, url: string, tags: string[]): Protocol => ({
  id,
  name,
  url,
  tags,
  icon: `https://icons.invalid/protocols/${id}.svg`,
  description: `${name} markets incentivized through reward campaigns.`,
});

/**
 * The protocol of each campaign type whose type names one (docs/contracts.md#campaign-type-ids). Token-holding types
 * (ERC20 family) name no protocol: their opportunity's protocol is null.
 */
const PROTOCOL_BY_TYPE: Readonly<Record<string, Protocol>> = {
  CLAMM: protocol('uniswap-v3', 'Uniswap V3', 'https://app.uniswap.invalid', ['dex', 'clamm']),
  UNISWAP_V4: protocol('uniswap-v4', 'Uniswap V4', 'https://app.uniswap.invalid', ['dex', 'hooks']),
  MORPHO: protocol('morpho', 'Morpho', 'https://app.morpho.invalid', ['lending']),
  AJNA: protocol('ajna', 'Ajna', 'https://app.ajna.invalid', ['lending', 'borrowing']),
  EULER: protocol('euler', 'Euler', 'https://app.euler.invalid', ['lending']),
  SILO: protocol('silo', 'Silo', 'https://app.silo.invalid', ['lending']),
  COMPOUND: protocol('compound', 'Compound', 'https://app.compound.invalid', ['lending']),
  RADIANT: protocol('radiant', 'Radiant', 'https://app.radiant.invalid', ['lending']),
  DOLOMITE: protocol('dolomite', 'Dolomite', 'https://app.dolomite.invalid', ['lending', 'margin']),
  EIGENLAYER: protocol('eigenlayer', 'EigenLayer', 'https://app.eigenlayer.invalid', ['restaking']),
};

/**
 * The key every by-protocol breakdown (campaign counts, distributed totals) gives campaigns whose
 * type names no protocol, so each breakdown sums to its total.
 */
export const NO_PROTOCOL_KEY = 'none';

/** Protocol of a campaign type name, or null. */
export function protocolOf(typeName: string): Protocol | null {
  return PROTOCOL_BY_TYPE[typeName] ?? null;
}

/** What the back office corrected of a protocol (table protocol_overrides), by protocol id. */
export type ProtocolCuration = Partial<Pick<Protocol, 'name' | 'icon' | 'description' | 'url' | 'tags'>>;
export type ProtocolCurations = ReadonlyMap<string, ProtocolCuration>;

/** Pure: the protocol of a campaign type with the back office's corrections applied (protocolOf without any). */
export function curatedProtocolOf(typeName: string, curations?: ProtocolCurations): Protocol | null {
  const protocol = protocolOf(typeName);
  const curation = protocol && curations?.get(protocol.id);
  return protocol && curation ? { ...protocol, ...curation } : protocol;
}

/**
 * Every protocol served, by id: the registry's with the back office's corrections, then the protocols the back office
 * added (table protocols). What reads, the projector and templates resolve a protocol id against.
 */
export type ProtocolCatalogue = ReadonlyMap<string, Protocol>;

/** Pure: the catalogue of the registry with `curations` applied and the `added` protocols (whose ids are not the registry's). */
export function protocolCatalogue(curations: ProtocolCurations, added: readonly Protocol[]): ProtocolCatalogue {
  const registry = registeredProtocols().map((p): [string, Protocol] => [p.id, { ...p, ...curations.get(p.id) }]);
  return new Map([
    ...registry,
    ...added.filter((p) => !registeredProtocol(p.id)).map((p): [string, Protocol] => [p.id, p]),
  ]);
}

/**
 * Pure: an opportunity's protocol: the one the back office set (`mainProtocolId`, looked up in the catalogue; null
 * when it is not there), else its campaign type's, as the catalogue serves it (the registry's without a catalogue).
 */
export function opportunityProtocol(
  typeName: string,
  mainProtocolId: string | null | undefined,
  catalogue?: ProtocolCatalogue,
): Protocol | null {
  if (mainProtocolId) return catalogue?.get(mainProtocolId) ?? registeredProtocol(mainProtocolId);
  const protocol = protocolOf(typeName);
  return protocol && (catalogue?.get(protocol.id) ?? protocol);
}

/** The registry's protocol of this id (as the code defines it), or null. */
export function registeredProtocol(id: string): Protocol | null {
  return Object.values(PROTOCOL_BY_TYPE).find((p) => p.id === id) ?? null;
}

/** The campaign type names whose protocol is `id` (an opportunity's `type` is one). */
export function typesOfProtocol(id: string): string[] {
  return Object.entries(PROTOCOL_BY_TYPE)
    .filter(([, p]) => p.id === id)
    .map(([type]) => type);
}

/** Every registered protocol, once each. */
export function registeredProtocols(): Protocol[] {
  return [...new Map(Object.values(PROTOCOL_BY_TYPE).map((p) => [p.id, p])).values()];
}

const ADDRESS = /^0x[0-9a-f]{40}$/;
const ID32 = /^0x[0-9a-f]{64}$/;

/**
 * Where each protocol's app shows a pool or market, from the chain's slug and the opportunity's
 * identifier (null for an identifier that is not such an object): Uniswap's pool page takes a V3 pool's
 * address and a V4 pool's id, Morpho's a Blue market's id or a MetaMorpho vault's address.
 */
const DEPOSIT_PATHS: Readonly<Record<string, (chain: string, identifier: string) => string | null>> = {
  CLAMM: (chain, id) => (ADDRESS.test(id) ? `/explore/pools/${chain}/${id}` : null),
  UNISWAP_V4: (chain, id) => (ID32.test(id) ? `/explore/pools/${chain}/${id}` : null),
  MORPHO: (chain, id) => (ID32.test(id) ? `/${chain}/market/${id}` : ADDRESS.test(id) ? `/${chain}/vault/${id}` : null),
};

/** Pure: a chain's name as a path segment of the protocols' apps: "Arbitrum One" → "arbitrum-one". */
export function chainSlug(chainName: string): string {
  return foldText(chainName)
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/**
 * Pure: the deposit link of an opportunity whose campaign data carries no `url`: its pool's or
 * market's page on its protocol's app (the protocol's `url`, the chain's slug, the pool address, pool
 * id or market id), e.g. `https://app.morpho.invalid/ethereum/market/0x…`; '' for a type or an
 * identifier no app page is known for (docs/api-behaviour.md#opportunity-names-and-links).
 */
export function defaultDepositUrl(typeName: string, chainName: string, identifier: string): string {
  const protocol = protocolOf(typeName);
  const path = DEPOSIT_PATHS[typeName]?.(chainSlug(chainName), identifier.toLowerCase());
  return protocol && path ? `${protocol.url}${path}` : '';
}
