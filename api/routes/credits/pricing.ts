/**
 * What campaigns cost in credits (our published price list; docs/api-behaviour.md#credits: the fields are named, not
 * the values): a base per week, a cost per rewarded recipient above the free tier, and weekly rates
 * per storing id and per tree depth; top-ups start at `minTopUpAmount`.
 */
export const CREDIT_PRICING = {
  baseCostPerWeek: 50,
  costPerRecipient: 0.01,
  freeTierRecipientThreshold: 1000,
  perStoringIdWeeklyRate: 5,
  perDepthWeeklyRate: 10,
  minTopUpAmount: 100,
} as const;
