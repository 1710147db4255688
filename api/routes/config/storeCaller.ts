import { isIP } from 'node:net';
import type { AuthState } from '../../identity/types.js';

/**
 * Who stores a configuration, for POST /v4/config/store's own rate limit and quota (issue #29 L2):
 * the API key (`key:<id>`), else the session's account (`user:<address>`), else the client address
 * (`ip:<address>`; an IPv6 client by its /64, the block one host is usually given, so rotating
 * addresses within it gains nothing). The back office is not limited: null.
 */
export function configStoreCallerOf(state: AuthState, clientAddress: string): string | null {
  if (state.backOffice) return null;
  if (state.apiKey) return `key:${state.apiKey.id}`;
  if (state.auth) return `user:${state.auth.address}`;
  return `ip:${isIP(clientAddress) === 6 ? ipv6Prefix64(clientAddress) : clientAddress}`;
}

/** `2001:db8:1:2:aa::1` → `2001:db8:1:2::/64` (zone dropped; an embedded IPv4 tail counts as two groups). */
export function ipv6Prefix64(address: string): string {
  const bare = address.split('%')[0]!.toLowerCase();
  const toGroups = (part: string) =>
    part
      ? part.split(':').flatMap((g) => {
          if (!g.includes('.')) return [g];
          const [a, b, c, d] = g.split('.').map(Number) as [number, number, number, number];
          return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
        })
      : [];
  const [head = '', tail] = bare.split('::');
  const left = toGroups(head);
  const right = tail === undefined ? [] : toGroups(tail);
  const groups = [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}
