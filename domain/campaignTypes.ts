/** Numeric campaign type ids and their names (docs/contracts.md#campaign-type-ids; 14–17 and 19–22 are inferred). */
export const CAMPAIGN_TYPE_NAMES: Readonly<Record<number, string>> = {
  0: 'INVALID',
  1: 'ERC20',
  2: 'CLAMM',
  3: 'ERC20_SNAPSHOT',
  4: 'JSON_AIRDROP',
  5: 'SILO',
  6: 'RADIANT',
  7: 'MORPHO',
  8: 'DOLOMITE',
  9: 'BADGER',
  10: 'COMPOUND',
  11: 'AJNA',
  12: 'EULER',
  13: 'UNISWAP_V4',
  14: 'ION',
  15: 'EIGENLAYER',
  16: 'ERC20TRANSFERS',
  17: 'ERC20LOGPROCESSOR',
  18: 'ERC20REBASELOGPROCESSOR',
  19: 'VEST',
  20: 'ERC20_FIX_APR',
  21: 'HYPERDRIVELOGPROCESSOR',
  22: 'HYPERDRIVELOGFIXPROCESSOR',
};

/** Name of a campaign type; unknown ids keep their number so they are still served. */
export function campaignTypeName(type: number): string {
  return CAMPAIGN_TYPE_NAMES[type] ?? `TYPE_${type}`;
}

export const OPPORTUNITY_ACTIONS = [
  'POOL',
  'HOLD',
  'DROP',
  'LEND',
  'BORROW',
  'LONG',
  'SHORT',
  'SWAP',
  'INVALID',
  'STAKE',
] as const;
export type OpportunityAction = (typeof OPPORTUNITY_ACTIONS)[number];

const ACTION_BY_TYPE: Readonly<Record<string, OpportunityAction>> = {
  ERC20: 'HOLD',
  ERC20_SNAPSHOT: 'HOLD',
  ERC20TRANSFERS: 'HOLD',
  ERC20LOGPROCESSOR: 'HOLD',
  ERC20REBASELOGPROCESSOR: 'HOLD',
  ERC20_FIX_APR: 'HOLD',
  VEST: 'HOLD',
  EIGENLAYER: 'STAKE',
  JSON_AIRDROP: 'DROP',
  CLAMM: 'POOL',
  UNISWAP_V4: 'POOL',
  SILO: 'LEND',
  RADIANT: 'LEND',
  MORPHO: 'LEND',
  DOLOMITE: 'LEND',
  COMPOUND: 'LEND',
  AJNA: 'BORROW',
  EULER: 'LEND',
  ION: 'LEND',
  BADGER: 'HOLD',
  HYPERDRIVELOGPROCESSOR: 'LONG',
  HYPERDRIVELOGFIXPROCESSOR: 'LONG',
};

/** What a user does to earn a campaign type's rewards; unknown and INVALID types are INVALID. */
export function actionOf(typeName: string): OpportunityAction {
  return ACTION_BY_TYPE[typeName] ?? 'INVALID';
}
