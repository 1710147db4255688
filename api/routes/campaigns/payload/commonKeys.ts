/** Keys of a campaign object that are campaign parameters, not campaign data. */
export const COMMON_KEYS = new Set([
  'amount',
  'startTimestamp',
  'endTimestamp',
  'duration',
  'rewardToken',
  'creator',
  'distributionMethodParameters',
]);
