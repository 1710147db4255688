import { ApiError } from '../shared/api.js';

/** Pure: a long hex id shortened to its head and tail, "0x356f…c1fb" (short ids stay whole). */
export function shortId(id: string): string {
  return id.length > 14 ? `${id.slice(0, 6)}…${id.slice(-4)}` : id;
}

const ID_FORMS = {
  campaign:
    'A campaign id is a number (such as 15763454050246324022) or a chain id and an on-chain campaign id (such as 1-0x followed by 64 hexadecimal digits).',
  opportunity:
    'An opportunity id is a number (such as 2791110788365896815) or chain id-type-identifier (such as 1-ERC20-0x…).',
} as const;

/**
 * Pure: what to tell a person whose detail view could not load: an id the API refuses or does not
 * know in plain words (never the API's validation pattern), anything else with the API's message.
 */
export function loadErrorMessage(kind: 'campaign' | 'opportunity', id: string, error: Error): string {
  if (error instanceof ApiError && error.status === 400 && error.errors.some((e) => e.field === 'id'))
    return `This ${kind} id is not valid: “${id}”. ${ID_FORMS[kind]}`;
  if (error instanceof ApiError && error.status === 404) return `There is no ${kind} with the id “${id}”.`;
  return `The ${kind} could not be loaded: ${error.message}.`;
}
