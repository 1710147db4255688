/** A protocol an opportunity belongs to (protocolSchema in api/openapi/records.ts). */
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
