import { ValidationError } from '../../errors.js';

/** A date as Unix seconds: digits are seconds, anything else must parse as an ISO 8601 date. */
export function toUnixSeconds(value: string, field: string): number {
  if (/^\d{1,12}$/.test(value)) return Number(value);
  const ms = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(ms))
    throw new ValidationError([{ field, message: 'must be an ISO 8601 date or Unix seconds' }]);
  return Math.floor(ms / 1000);
}
