import type { EnumDefinition } from '../../reads/enums/registry.js';

/** Item of GET /v4/enums. */
export type EnumSummary = { name: string; type: 'number' | 'string'; hasMetadata: boolean };

/** Result of converting one value (GET …/convert/{value}, POST …/batch-convert). */
export type ConvertResult = { input: string | number; output: string | number; description?: string };

/** Pure: an enum → its listing item; `hasMetadata` when at least one entry has a description. */
export function serializeEnumSummary(e: EnumDefinition): EnumSummary {
  return { name: e.name, type: e.type, hasMetadata: e.entries.some((x) => x.description !== undefined) };
}

/** Pure: an enum → `{ name, type, entries }`. */
export function serializeEnum(e: EnumDefinition): {
  name: string;
  type: 'number' | 'string';
  entries: EnumDefinition['entries'];
} {
  return { name: e.name, type: e.type, entries: e.entries.map((x) => ({ ...x })) };
}

/**
 * Pure: converts one value. For a numeric enum a number (or decimal string) becomes the name and a
 * name (any case) becomes the number; a string enum maps any-case names to the canonical name.
 * @returns the conversion, or null when the value is not in the enum.
 */
export function convertEnumValue(e: EnumDefinition, input: string | number): ConvertResult | null {
  const text = String(input).trim();
  const numeric = e.type === 'number' && /^[0-9]+$/.test(text);
  const entry = numeric
    ? e.entries.find((x) => x.value === Number(text))
    : e.entries.find((x) => x.key.toLowerCase() === text.toLowerCase());
  if (!entry) return null;
  const output = e.type === 'number' ? (numeric ? entry.key : entry.value) : entry.key;
  return { input, output, ...(entry.description !== undefined ? { description: entry.description } : {}) };
}
