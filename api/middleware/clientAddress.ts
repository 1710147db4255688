import { isIP } from 'node:net';
import type { Context } from 'koa';
import type { Config } from '../../internal/config.js';
import { formatIpv4, ipBytes, ipv6Prefix64, isIpv4Mapped } from '../../internal/ipAddress.js';

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

/**
 * Pure: the key every per-address limit counts a client address under (the rate limit, the address
 * screen, event stream slots, API key creation, stored configurations; #43 F5): an IPv4 address as
 * is, an IPv4-mapped IPv6 address as that IPv4, any other IPv6 address by its /64 (`2001:db8:1:2::/64`:
 * the block one host or subscriber is usually given, so addresses rotated within it are one client).
 * Anything that is not an address is kept as given.
 */
export function clientKey(address: string): string {
  const bytes = ipBytes(address);
  if (!bytes) return address;
  if (bytes.length === 4) return formatIpv4(bytes);
  return isIpv4Mapped(bytes) ? formatIpv4(bytes.subarray(12)) : ipv6Prefix64(bytes);
}

/** The client key (clientKey) of a request's client address as far as trusted proxies vouch for it (clientAddressOf). */
export function clientKeyOf(trusted: TrustedProxies): (ctx: Context) => string {
  const addressOf = clientAddressOf(trusted);
  return (ctx) => clientKey(addressOf(ctx));
}
