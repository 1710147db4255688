import { isIP } from 'node:net';
import type { Context } from 'koa';
import type { Config } from '../../internal/config.js';

export type TrustedProxies = Config['trustedProxies'];

/** `::ffff:10.0.0.1` → `10.0.0.1`, so one client has one spelling. */
const normalize = (address: string) => address.trim().replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1');

/**
 * The client's address as far as configured proxies vouch for it (TRUSTED_PROXIES). Unset: the
 * socket's peer, forwarded headers ignored. `{ hops: n }`: the address n entries from the right of
 * `X-Forwarded-For` + peer (each trusted proxy appends the address it saw). `{ addresses }`: walk
 * from the peer leftwards while the address is a trusted proxy; the first other one is the client.
 * Entries left of what trusted proxies appended are the caller's own words and never used; an entry
 * that is not an IP address stops the walk at the last trusted hop.
 */
export function clientAddressOf(trusted: TrustedProxies): (ctx: Context) => string {
  const peerOf = (ctx: Context) => normalize(ctx.req.socket.remoteAddress ?? ctx.ip ?? '');
  if (!trusted) return peerOf;
  const isTrusted = 'addresses' in trusted ? new Set(trusted.addresses.map(normalize)) : null;
  return (ctx) => {
    const peer = peerOf(ctx);
    const forwarded = ctx.get('x-forwarded-for').split(',').map(normalize).filter(Boolean);
    const chain = [...forwarded, peer];
    let index = chain.length - 1;
    if (isTrusted) {
      while (index > 0 && isTrusted.has(chain[index]!)) index--;
    } else {
      index = Math.max(0, chain.length - 1 - (trusted as { hops: number }).hops);
    }
    // A garbled entry: fall back to the nearest address a trusted hop reported.
    while (index < chain.length - 1 && isIP(chain[index]!) === 0) index++;
    return chain[index]!;
  };
}
