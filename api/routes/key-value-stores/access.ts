import type { AuthState } from '../../identity/types.js';
import type { StoreRow } from './repo.js';

/** A canonical key as sent in a path: the owner part is case-insensitive, the suffix is not. */
export function canonicalKeyOf(pathKey: string): string {
  const at = pathKey.indexOf(':');
  return `${pathKey.slice(0, at).toLowerCase()}${pathKey.slice(at)}`;
}

/** The wallet the caller acts as: its session's, else its API key owner's (lower case). */
export function ownerOfCaller(state: AuthState): string | null {
  return state.session?.address.toLowerCase() ?? state.apiKey?.ownerAddress ?? null;
}

/** Whether the caller's session or API key belongs to the store owner. */
function isOwner(state: AuthState, store: StoreRow): boolean {
  return (
    state.session?.address.toLowerCase() === store.owner_address || state.apiKey?.ownerAddress === store.owner_address
  );
}

/**
 * Read access (docs/api-behaviour.md#key-value-stores): anyone for a `publicRead` store; otherwise the owner (session
 * or API key) or the back office. 'anonymous' (no valid credential → 401) and 'forbidden' (→ 403) refuse.
 */
export function canRead(state: AuthState, store: StoreRow): 'ok' | 'anonymous' | 'forbidden' {
  if (store.public_read || state.backOffice || isOwner(state, store)) return 'ok';
  return state.auth ? 'forbidden' : 'anonymous';
}

/** Whether the caller writes as the store's owner (any entry) rather than as a wallet for its own entry only. */
export function writesAsOwner(state: AuthState, store: StoreRow): boolean {
  return isOwner(state, store);
}

/**
 * Write (and delete) access to one entry: the owner writes any entry; in a PUBLIC store a signed-in
 * wallet (session) writes its own address's entry, unless someone else (the owner) wrote it: that
 * is checked in the same statement as the write (repo ownEntriesOnly / writtenBy). @returns why not, or null when allowed.
 */
export function canWriteEntry(state: AuthState, store: StoreRow, address: string): string | null {
  if (isOwner(state, store)) return null;
  if (store.access_mode !== 'PUBLIC') return `Only the owner of ${store.key} may write its entries`;
  if (!state.session) return `A wallet session is required to write your own entry in ${store.key}`;
  if (state.session.address.toLowerCase() !== address.toLowerCase())
    return `A wallet may only write the entry of its own address in ${store.key}`;
  return null;
}
