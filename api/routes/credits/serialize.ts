import { creditText, type CreditOperationRow } from './repo.js';

/** A credit operation as the API answers it (amounts as exact decimal strings). */
export const serializeOperation = (o: CreditOperationRow) => ({
  id: o.id,
  creatorId: o.creator_id,
  type: o.type,
  amount: creditText(o.amount),
  label: o.label,
  balanceAfter: creditText(o.balance_after),
  timestamp: o.created_at.toISOString(),
});
