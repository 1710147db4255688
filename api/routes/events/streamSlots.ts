import type { AuthState } from '../../identity/types.js';

/** Concurrent streams of one anonymous caller (per client address). */
export const ANONYMOUS_STREAMS = 2;
/** Concurrent streams per API-key tier step: tier 0 gets this many, each tier above as many more. */
export const STREAMS_PER_TIER = 5;
/** The back office (monitoring, tools). */
export const BACK_OFFICE_STREAMS = 100;

/** Who holds a stream: the API key, else the session's wallet, else the client address. */
export function streamCaller(state: AuthState, clientAddress: string): { key: string; max: number } {
  if (state.backOffice) return { key: 'backOffice', max: BACK_OFFICE_STREAMS };
  if (state.apiKey) return { key: `key:${state.apiKey.id}`, max: STREAMS_PER_TIER * (state.apiKey.tier + 1) };
  if (state.auth) return { key: `wallet:${state.auth.address}`, max: STREAMS_PER_TIER * (state.auth.tier + 1) };
  return { key: `ip:${clientAddress}`, max: ANONYMOUS_STREAMS };
}

export type StreamSlots = {
  /** Takes a slot for `key`; false when it already holds `max`. */
  acquire(key: string, max: number): boolean;
  release(key: string): void;
};

/**
 * Open streams per caller in this API process. Per process on purpose (#34): what a stream costs is
 * this process's socket, buffer and a place in its one event feed (PostgreSQL does one read per append
 * for all of them), so this bounds that process; N processes behind a round-robin front allow a
 * caller N × max. A count shared through PostgreSQL would outlive a SIGKILLed process (its slots held
 * until a heartbeat expires) and refuse the very reconnect that `subscribe()` makes after it; a front
 * that needs the exact bound pins a caller's `/v4/events` to one process (hash on key or address).
 */
export function createStreamSlots(): StreamSlots {
  const held = new Map<string, number>();
  return {
    acquire(key, max) {
      const n = held.get(key) ?? 0;
      if (n >= max) return false;
      held.set(key, n + 1);
      return true;
    },
    release(key) {
      const n = (held.get(key) ?? 1) - 1;
      if (n > 0) held.set(key, n);
      else held.delete(key);
    },
  };
}
