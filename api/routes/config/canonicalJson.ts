import { createHash } from 'node:crypto';

/**
 * Pure: the canonical JSON text of a value: object keys sorted (by UTF-16 code units) at every
 * depth, no whitespace, array order kept. Properties whose value is `undefined` are left out and
 * non-finite numbers become `null`, as JSON.stringify does, so key order and formatting never
 * change the text.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value)) return 'null';
    if (typeof value === 'bigint') return value.toString();
    return JSON.stringify(value) ?? 'null';
  }
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v === undefined ? null : v)).join(',')}]`;
  const entries = Object.keys(value as object)
    .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
  return `{${entries.join(',')}}`;
}

/** Pure: `0x` + the SHA-256 hex digest of a configuration's canonical JSON (UTF-8). */
export function hashConfig(config: unknown): `0x${string}` {
  return `0x${createHash('sha256').update(canonicalJson(config), 'utf8').digest('hex')}`;
}

/** Largest stored configuration: 16,384 bytes of canonical JSON (docs/api-behaviour.md#stored-configurations). */
export const MAX_CONFIG_BYTES = 16_384;
