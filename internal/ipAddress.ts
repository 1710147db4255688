import { isIP } from 'node:net';

/** An IP address as its bytes: 4 for IPv4, 16 for IPv6. */
export type IpBytes = Uint8Array;

/**
 * Pure: the bytes of an IP literal (IPv6 in any spelling: `::`, an IPv4 tail, brackets, a zone
 * `%eth0` dropped); null when `text` is not an IP address.
 */
export function ipBytes(text: string): IpBytes | null {
  const bare = text
    .trim()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/%.*$/, '');
  const version = isIP(bare);
  if (version === 4) return Uint8Array.from(bare.split('.').map(Number));
  if (version !== 6) return null;
  const toGroups = (part: string) =>
    part
      ? part.split(':').flatMap((g) => {
          if (!g.includes('.')) return [Number.parseInt(g, 16)];
          const [a, b, c, d] = g.split('.').map(Number) as [number, number, number, number];
          return [(a << 8) | b, (c << 8) | d];
        })
      : [];
  const [head = '', tail] = bare.toLowerCase().split('::');
  const left = toGroups(head);
  const right = tail === undefined ? [] : toGroups(tail);
  const groups = [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
  return Uint8Array.from(groups.flatMap((g) => [g >> 8, g & 255]));
}

/** Pure: whether the first `prefix` bits of `ip` equal those of `base` (both of one family). */
export function inPrefix(ip: IpBytes, base: IpBytes, prefix: number): boolean {
  if (ip.length !== base.length) return false;
  for (let bit = 0; bit < prefix; bit += 8) {
    const i = bit / 8;
    const mask = prefix - bit >= 8 ? 0xff : (0xff << (8 - (prefix - bit))) & 0xff;
    if ((ip[i]! & mask) !== (base[i]! & mask)) return false;
  }
  return true;
}

/** Pure: 4 bytes → `a.b.c.d`. */
export function formatIpv4(bytes: IpBytes): string {
  return Array.from(bytes.subarray(0, 4)).join('.');
}

/** Pure: whether 16 bytes are an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`, RFC 4291 §2.5.5.2). */
export function isIpv4Mapped(bytes: IpBytes): boolean {
  return bytes.length === 16 && bytes.subarray(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
}

/** Pure: the /64 an IPv6 address lies in, as `2001:db8:1:2::/64` (its first four groups, without leading zeros). */
export function ipv6Prefix64(bytes: IpBytes): string {
  const groups = [0, 2, 4, 6].map((i) => ((bytes[i]! << 8) | bytes[i + 1]!).toString(16));
  return `${groups.join(':')}::/64`;
}
