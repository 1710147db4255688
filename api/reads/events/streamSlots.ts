import type { Context } from 'koa';
import { AppError } from '../../errors.js';
import type { AuthState } from '../../identity/types.js';
import { PROBLEMS } from '../../problems/registry.js';

/** Concurrent streams of one anonymous caller (per client address). */
export const ANONYMOUS_STREAMS = 2;
/** Concurrent streams per API-key tier step: tier 0 gets this many, each tier above as many more. */
export const STREAMS_PER_TIER = 5;
/** The back office (monitoring, tools). */
export const BACK_OFFICE_STREAMS = 100;
/** Seconds a caller refused because the process holds its most streams is asked to wait (Retry-After). */
const FULL_RETRY_AFTER_S = 5;

/**
 * Who holds a stream: `key` is the API key, else the session's wallet, else the client address, with
 * that caller's `max`; `address` is the client key (api/middleware/clientAddress.ts) every caller of
 * that address shares a bound under, whatever keys or wallets it uses (null: the back office, bounded
 * by its own count only).
 */
export type StreamCaller = { key: string; max: number; address: string | null };

/** Bounds of one process (config.clientLimits): streams per client address, and in all. */
export type StreamSlotLimits = { perAddress: number; perProcess: number };

/** The caller of a stream request; `clientKey` as clientKeyOf(config.trustedProxies) reads it. */
export function streamCaller(state: AuthState, clientKey: string): StreamCaller {
  if (state.backOffice) return { key: 'backOffice', max: BACK_OFFICE_STREAMS, address: null };
  const address = clientKey;
  if (state.apiKey) return { key: `key:${state.apiKey.id}`, max: STREAMS_PER_TIER * (state.apiKey.tier + 1), address };
  if (state.auth)
    return { key: `wallet:${state.auth.address}`, max: STREAMS_PER_TIER * (state.auth.tier + 1), address };
  return { key: `ip:${clientKey}`, max: ANONYMOUS_STREAMS, address };
}

export type StreamSlots = {
  /**
   * Takes a slot for `caller`, counted against its own max, its client address's and the process's.
   * @throws AppError 429 TOO_MANY_STREAMS (the caller's or its address's bound; `scope` says which),
   * or 503 TOO_MANY_STREAMS with Retry-After (set on `ctx`) when the process serves its most streams.
   */
  acquire(caller: StreamCaller, ctx: Pick<Context, 'set'>): void;
  /** Gives back a slot `acquire` took. */
  release(caller: StreamCaller): void;
  /** Streams open in this process. */
  open(): number;
};

/**
 * Open streams in this API process, per caller, per client address and in all. Per process on
 * purpose (#34): what a stream costs is this process's socket, buffer and a place in its one event
 * feed (PostgreSQL does one read per append for all of them), so this bounds that process; N
 * processes behind a round-robin front allow a caller N × max. A count shared through PostgreSQL
 * would outlive a SIGKILLed process (its slots held until a heartbeat expires) and refuse the very
 * reconnect that `subscribe()` makes after it; a front that needs the exact bound pins a caller's
 * `/v4/events` to one process (hash on key or address). The per-address bound holds whatever the
 * caller's identities: wallets and API keys are free to make, an address (an IPv6 /64) is not (#43 F5).
 */
export function createStreamSlots(limits: StreamSlotLimits): StreamSlots {
  const held = new Map<string, number>();
  let open = 0;
  const addressKey = (address: string) => `address:${address}`;
  const add = (key: string, n: number) => {
    const next = (held.get(key) ?? 0) + n;
    if (next > 0) held.set(key, next);
    else held.delete(key);
  };
  return {
    acquire(caller, ctx) {
      if (open >= limits.perProcess) {
        ctx.set('Retry-After', String(FULL_RETRY_AFTER_S));
        throw new AppError(
          PROBLEMS.TOO_MANY_STREAMS,
          `This server holds its most event streams (${limits.perProcess}); retry in ${FULL_RETRY_AFTER_S} s`,
          { status: 503, extensions: { maxStreams: limits.perProcess, scope: 'process' } },
        );
      }
      if ((held.get(caller.key) ?? 0) >= caller.max)
        throw new AppError(PROBLEMS.TOO_MANY_STREAMS, `At most ${caller.max} concurrent event streams per caller`, {
          extensions: { maxStreams: caller.max, scope: 'caller' },
        });
      if (caller.address !== null && (held.get(addressKey(caller.address)) ?? 0) >= limits.perAddress)
        throw new AppError(
          PROBLEMS.TOO_MANY_STREAMS,
          `At most ${limits.perAddress} concurrent event streams per client address, whatever the API keys or sessions`,
          { extensions: { maxStreams: limits.perAddress, scope: 'address' } },
        );
      add(caller.key, 1);
      if (caller.address !== null) add(addressKey(caller.address), 1);
      open += 1;
    },
    release(caller) {
      add(caller.key, -1);
      if (caller.address !== null) add(addressKey(caller.address), -1);
      open = Math.max(0, open - 1);
    },
    open: () => open,
  };
}

/** One StreamSlots per app (its deps): the events router takes its slots there, /metrics reads their count. */
const slotsOfApp = new WeakMap<object, StreamSlots>();

/** The stream slots of the app built on `deps` (created on first use with its client limits). */
export function streamSlotsOf(deps: {
  config: { clientLimits: { streamsPerAddress: number; streamsPerProcess: number } };
}): StreamSlots {
  let slots = slotsOfApp.get(deps);
  if (!slots) {
    slots = createStreamSlots({
      perAddress: deps.config.clientLimits.streamsPerAddress,
      perProcess: deps.config.clientLimits.streamsPerProcess,
    });
    slotsOfApp.set(deps, slots);
  }
  return slots;
}
