import { formatIpv4, inPrefix, ipBytes, type IpBytes } from './ipAddress.js';
import {
  IPV4_SPECIAL_RANGES,
  IPV6_RESERVED_BLOCKS,
  IPV6_SPECIAL_RANGES,
  SPECIAL_GROUPS,
  type SpecialRange,
} from './specialAddresses.js';

/** Range names an operator may allow besides CIDRs (internal/specialAddresses.ts groups). */
export const OUTBOUND_RANGE_NAMES: readonly string[] = SPECIAL_GROUPS;

/** What an operator allows (WEBHOOKS_ALLOW_PRIVATE), parsed once. */
export type OutboundAllowance = { names: readonly string[]; cidrs: readonly string[] };

type Compiled = { base: IpBytes; prefix: number };
type CompiledRange = SpecialRange & Compiled;

/** `a.b.c.d/n` or `x::/n` → its bytes and prefix; null when it is not a CIDR. */
function compileCidr(cidr: string): Compiled | null {
  const [address = '', bits, ...rest] = cidr.split('/');
  const base = ipBytes(address);
  const prefix = Number(bits);
  if (!base || rest.length || !/^\d{1,3}$/.test(bits ?? '') || prefix > base.length * 8) return null;
  return { base, prefix };
}

const compile = (ranges: readonly SpecialRange[]): CompiledRange[] =>
  ranges.map((r) => ({ ...r, ...compileCidr(r.cidr)! }));
const IPV4 = compile(IPV4_SPECIAL_RANGES);
const IPV6 = compile([...IPV6_SPECIAL_RANGES, ...IPV6_RESERVED_BLOCKS]);

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
    else if (compileCidr(entry)) cidrs.push(entry);
    else throw new Error(`not a range name (${OUTBOUND_RANGE_NAMES.join(', ')}) or a CIDR: ${entry}`);
  }
  return { names, cidrs };
}

/** Why an address may not be reached: the special range (its group, CIDR, registry name, RFC), and the IPv4 address it carries when that one is the refused one. */
export type OutboundRefusal = Pick<SpecialRange, 'group' | 'cidr' | 'name' | 'rfc'> & { via?: string };

/** The most specific special range holding `bytes` (as routing picks a route), if any. */
function rangeOf(bytes: IpBytes): CompiledRange | undefined {
  let best: CompiledRange | undefined;
  for (const r of bytes.length === 4 ? IPV4 : IPV6)
    if (inPrefix(bytes, r.base, r.prefix) && (!best || r.prefix > best.prefix)) best = r;
  return best;
}

/**
 * Pure: why `address` (an IP literal, brackets allowed) may not be reached under `allowance`, or null
 * when it may. Refused: an address whose most specific special range (internal/specialAddresses.ts)
 * the operator allows neither by its group nor by a CIDR holding the address; and an address
 * carrying an IPv4 address (IPv4-mapped, -compatible, SIIT, NAT64, 6to4, Teredo) that is refused
 * itself, so `::ffff:127.0.0.1`, `[::127.0.0.1]` and `2002:7f00:1::` are loopback. Anything that is
 * not an IP address is refused.
 */
export function outboundRefusal(address: string, allowance: OutboundAllowance): OutboundRefusal | null {
  const bytes = ipBytes(address);
  if (!bytes) return { group: 'reserved', cidr: '', name: 'not an IP address', rfc: '' };
  const allowedCidrs = allowance.cidrs.map((c) => compileCidr(c)!);
  const judge = (ip: IpBytes): CompiledRange | null => {
    const range = rangeOf(ip);
    if (!range || allowance.names.includes(range.group)) return null;
    return allowedCidrs.some((c) => inPrefix(ip, c.base, c.prefix)) ? null : range;
  };
  for (const ipv4 of rangeOf(bytes)?.embeds?.(bytes) ?? []) {
    const refused = judge(ipv4);
    if (refused) return { ...describe(refused), via: formatIpv4(ipv4) };
  }
  const refused = judge(bytes);
  return refused ? describe(refused) : null;
}

const describe = ({ group, cidr, name, rfc }: SpecialRange): OutboundRefusal => ({ group, cidr, name, rfc });

/** Pure: the group (range name) that makes `address` refused under `allowance`, or null (outboundRefusal). */
export function refusedRange(address: string, allowance: OutboundAllowance): string | null {
  return outboundRefusal(address, allowance)?.group ?? null;
}
