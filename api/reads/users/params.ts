import { fields } from '../../validate.js';
import type { ApiDeps } from '../../deps.js';
import { ValidationError, type FieldError } from '../../errors.js';

/** Schema of an address (path or query). */
export const addressField = fields.address;

/** Schema of a chain id list: repeated keys (`?chainId=1&chainId=2`) or comma lists (`?chainId=1,2`). */
export const chainIdListField = {
  type: 'array',
  minItems: 1,
  maxItems: 50,
  items: { type: 'string', pattern: '^[0-9]{1,15}(,[0-9]{1,15})*$' },
} as const;

/** Pure: the validated list values → distinct chain ids, in the order given. */
export function splitChainIds(values: readonly string[] | undefined): number[] | undefined {
  if (!values) return undefined;
  return [...new Set(values.flatMap((v) => v.split(',')).map(Number))];
}

/** Pure: field errors for chain ids the API is not configured for. */
export function unsupportedChainErrors(
  field: string,
  chainIds: readonly number[],
  supported: ReadonlySet<number>,
): FieldError[] {
  const bad = chainIds.filter((id) => !supported.has(id));
  return bad.length ? [{ field, message: `is not a supported chain (${bad.join(', ')})` }] : [];
}

/**
 * Validated chain ids of a query list, each one a configured chain (else a 400 naming `field`).
 * @returns the ids, or every configured chain when the list is absent.
 */
export function resolveChainIds(deps: ApiDeps, field: string, values: string[] | undefined): number[] {
  const supported = new Set(deps.config.chains.map((c) => c.id));
  const ids = splitChainIds(values) ?? [...supported];
  const errors = unsupportedChainErrors(field, ids, supported);
  if (errors.length) throw new ValidationError(errors);
  return ids;
}
