import { BlockList, isIP } from 'node:net';

/**
 * Address ranges an outbound request to a caller-given URL (webhooks, issue #32) must not reach
 * unless the operator allows them: a caller could otherwise make our jobs probe the internal
 * network or the cloud metadata service (169.254.169.254). Named so that an allowance can name one.
 */
const RANGES: Record<string, readonly [string, number, 'ipv4' | 'ipv6'][]> = {
  loopback: [
    ['127.0.0.0', 8, 'ipv4'],
    ['::1', 128, 'ipv6'],
  ],
  private: [
    ['10.0.0.0', 8, 'ipv4'],
    ['172.16.0.0', 12, 'ipv4'],
    ['192.168.0.0', 16, 'ipv4'],
    ['100.64.0.0', 10, 'ipv4'],
    ['fc00::', 7, 'ipv6'],
  ],
  'link-local': [
    ['169.254.0.0', 16, 'ipv4'],
    ['fe80::', 10, 'ipv6'],
  ],
  unspecified: [
    ['0.0.0.0', 8, 'ipv4'],
    ['::', 128, 'ipv6'],
  ],
  multicast: [
    ['224.0.0.0', 4, 'ipv4'],
    ['ff00::', 8, 'ipv6'],
  ],
  reserved: [
    ['240.0.0.0', 4, 'ipv4'],
    ['192.0.0.0', 24, 'ipv4'],
    ['198.18.0.0', 15, 'ipv4'],
  ],
};

/** Range names an operator may allow besides CIDRs. */
export const OUTBOUND_RANGE_NAMES = Object.keys(RANGES);

/** What an operator allows (WEBHOOKS_ALLOW_PRIVATE), parsed once. */
export type OutboundAllowance = { names: readonly string[]; cidrs: readonly string[] };

/** Pure: `loopback,10.1.0.0/16` → names and CIDRs; throws naming an entry that is neither. */
export function parseOutboundAllowance(text: string | undefined): OutboundAllowance {
  const entries = (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const names: string[] = [];
  const cidrs: string[] = [];
  for (const entry of entries) {
    if (OUTBOUND_RANGE_NAMES.includes(entry)) names.push(entry);
    else if (cidrOf(entry)) cidrs.push(entry);
    else throw new Error(`not a range name (${OUTBOUND_RANGE_NAMES.join(', ')}) or a CIDR: ${entry}`);
  }
  return { names, cidrs };
}

function cidrOf(entry: string): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } | null {
  const [address = '', bits, ...rest] = entry.split('/');
  const version = isIP(address);
  const prefix = Number(bits);
  if (!version || rest.length || !Number.isInteger(prefix) || prefix < 0 || prefix > (version === 4 ? 32 : 128))
    return null;
  return { address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

/**
 * Pure: the range name that makes `address` (an IP literal, brackets allowed) refused under
 * `allowance`, or null when it may be reached. An IPv4-mapped or NAT64 IPv6 address is judged by
 * the IPv4 address it carries, so `::ffff:127.0.0.1` is loopback.
 */
export function refusedRange(address: string, allowance: OutboundAllowance): string | null {
  const ip = embeddedIpv4(address.replace(/^\[|\]$/g, ''));
  const family = isIP(ip) === 4 ? 'ipv4' : 'ipv6';
  const allowed = new BlockList();
  for (const c of allowance.cidrs) {
    const cidr = cidrOf(c)!;
    allowed.addSubnet(cidr.address, cidr.prefix, cidr.family);
  }
  if (allowed.check(ip, family)) return null;
  for (const [name, ranges] of Object.entries(RANGES)) {
    if (allowance.names.includes(name)) continue;
    const list = new BlockList();
    for (const [a, prefix, f] of ranges) list.addSubnet(a, prefix, f);
    if (list.check(ip, family)) return name;
  }
  return null;
}

/** The IPv4 address inside an IPv4-mapped (::ffff:a.b.c.d) or NAT64 (64:ff9b::a.b.c.d) IPv6 address; else the address. */
function embeddedIpv4(ip: string): string {
  if (isIP(ip) !== 6) return ip;
  const m = /^(?:0{0,4}:){0,5}(?:::)?ffff:|^64:ff9b::/i.exec(ip);
  if (!m) return ip;
  const tail = ip.slice(m[0].length);
  if (isIP(tail) === 4) return tail;
  const groups = tail.split(':');
  if (groups.length !== 2) return ip;
  const [hi, lo] = groups.map((g) => Number.parseInt(g, 16)) as [number, number];
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}
