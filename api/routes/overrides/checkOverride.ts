/** One broken override rule: the configuration field at fault and why. */
export type OverrideError = { path: string; message: string };
/** Response of POST /v4/overrides/check (docs/api-behaviour.md#overrides). */
export type CheckOverrideResult = { isValid: boolean; errors: OverrideError[] };

type Config = Record<string, unknown>;

/** Pure: a Unix-seconds value given as a number or a numeric string, else undefined (absent) or NaN (malformed). */
export function toSeconds(value: unknown): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'number') return Number.isInteger(value) && value >= 0 ? value : NaN;
  if (typeof value === 'string' && /^[0-9]{1,15}$/.test(value.trim())) return Number(value.trim());
  return NaN;
}

/** Pure: a token amount given as a digit string or a non-negative integer number, else undefined / null (malformed). */
export function toAmount(value: unknown): bigint | undefined | null {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'number') return Number.isInteger(value) && value >= 0 ? BigInt(value) : null;
  if (typeof value === 'bigint') return value >= 0n ? value : null;
  if (typeof value === 'string' && /^[0-9]{1,78}$/.test(value.trim())) return BigInt(value.trim());
  return null;
}

/** Pure: the end of a configuration: `endTimestamp`, else `startTimestamp + duration`. */
function endOf(config: Config): number | undefined {
  const end = toSeconds(config['endTimestamp']);
  if (end !== undefined) return end;
  const start = toSeconds(config['startTimestamp']);
  const duration = toSeconds(config['duration']);
  return start !== undefined && duration !== undefined ? start + duration : undefined;
}

function malformed(config: Config, side: 'oldConfig' | 'newConfig'): OverrideError[] {
  const errors: OverrideError[] = [];
  for (const f of ['startTimestamp', 'endTimestamp', 'duration']) {
    if (Number.isNaN(toSeconds(config[f])))
      errors.push({ path: `${side}.${f}`, message: 'must be a Unix timestamp in seconds (number or numeric string)' });
  }
  if (toAmount(config['amount']) === null)
    errors.push({ path: `${side}.amount`, message: 'must be an integer amount in base units (digits or number)' });
  return errors;
}

/**
 * Pure: the override rules of a campaign configuration: 1. `rewardToken` cannot change
 * (case-insensitive); 2. `amount` cannot change (compared as integers); 3. `startTimestamp` cannot
 * change once the campaign has started (the old configuration's start ≤ `now`); 4. the new end
 * (`endTimestamp`, else `startTimestamp + duration`, the start defaulting to the old one) must be
 * after `now`. A field the new configuration leaves out is unchanged.
 */
export function checkOverride(oldConfig: Config, newConfig: Config, now: number): CheckOverrideResult {
  const errors = [...malformed(oldConfig, 'oldConfig'), ...malformed(newConfig, 'newConfig')];
  const oldToken = oldConfig['rewardToken'];
  const newToken = newConfig['rewardToken'];
  if (newToken !== undefined && String(newToken).toLowerCase() !== String(oldToken ?? '').toLowerCase()) {
    errors.push({ path: 'rewardToken', message: 'cannot change in an override' });
  }
  const oldAmount = toAmount(oldConfig['amount']);
  const newAmount = toAmount(newConfig['amount']);
  if (newAmount !== undefined && newAmount !== null && oldAmount !== null && newAmount !== oldAmount) {
    errors.push({ path: 'amount', message: 'cannot change in an override' });
  }
  const oldStart = toSeconds(oldConfig['startTimestamp']);
  const newStart = toSeconds(newConfig['startTimestamp']);
  if (
    oldStart !== undefined &&
    !Number.isNaN(oldStart) &&
    oldStart <= now &&
    newStart !== undefined &&
    !Number.isNaN(newStart) &&
    newStart !== oldStart
  ) {
    errors.push({ path: 'startTimestamp', message: `cannot change after the campaign started (at ${oldStart})` });
  }
  const end =
    endOf({ ...newConfig, startTimestamp: newConfig['startTimestamp'] ?? oldConfig['startTimestamp'] }) ??
    endOf(oldConfig);
  if (end === undefined)
    errors.push({ path: 'endTimestamp', message: 'is required (endTimestamp, or startTimestamp and duration)' });
  else if (!Number.isNaN(end) && end <= now)
    errors.push({ path: 'endTimestamp', message: `must be in the future (got ${end}, now ${now})` });
  return { isValid: errors.length === 0, errors };
}
