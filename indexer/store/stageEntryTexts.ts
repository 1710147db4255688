import { RewardTreeFormatError, type RewardTreeEntry } from '../decode/parseRewardTree.js';
import { parseTreeEntry } from '../decode/readTreeDocument.js';
import { JsonSplitError, parseJsonValue } from '../decode/splitJsonDocument.js';
import { stagedLeafLine } from './stageRewardTree.js';
import type { Keccak } from '../../internal/keccak.js';
import { type CheckedEntries, checkEntries } from '../transform/checkRewardTree.js';

/** A run of entries made ready to stage: checked and hashed, and their staged-leaves COPY rows. */
export type StagedEntries = CheckedEntries & { lines: string };

/**
 * Why a run of entries was refused, as plain data (it crosses a worker thread): the first bad
 * element's text is not JSON, or the schema's refusal of the first bad entry (message and details
 * of its RewardTreeFormatError).
 */
export type EntriesRefusal =
  | { refused: 'not-json' }
  | { refused: 'invalid'; message: string; details: Record<string, unknown> };

/**
 * Pure (keccak passed in): the entries `texts` (elements `first`, `first + 1`, … of `rewards`)
 * parsed, checked against the schema, checked and hashed (checkEntries) and turned into COPY rows
 * (stagedLeafLine): the per-entry work of reading a tree, done on a run of entries anywhere, a worker
 * thread included. The first entry that is not JSON or not an entry refuses the run.
 */
export function stageEntryTexts(
  keccak: Keccak,
  texts: readonly string[],
  first: number,
): StagedEntries | EntriesRefusal {
  const entries: RewardTreeEntry[] = new Array(texts.length);
  try {
    for (let i = 0; i < texts.length; i++) entries[i] = parseTreeEntry(parseJsonValue(texts[i]!), first + i);
  } catch (error) {
    if (error instanceof JsonSplitError) return { refused: 'not-json' };
    if (error instanceof RewardTreeFormatError)
      return { refused: 'invalid', message: error.message, details: { ...error.details } };
    throw error;
  }
  let lines = '';
  for (const entry of entries) lines += stagedLeafLine(entry);
  return { ...checkEntries(keccak, entries), lines };
}
