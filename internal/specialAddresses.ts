/**
 * Address ranges an outbound request to a caller-given URL (webhooks, #32) must not reach unless the
 * operator allows them (WEBHOOKS_ALLOW_PRIVATE), as data (#43 F8: ranges listed by hand let
 * `[::127.0.0.1]`, 6to4 of loopback and the documentation nets through). Sources:
 * - IANA IPv4 Special-Purpose Address Registry (iana-ipv4-special-registry) and the multicast block;
 * - IANA IPv6 Special-Purpose Address Registry (iana-ipv6-special-registry), plus the deprecated
 *   site-local (fec0::/10) and IPv4-compatible (::/96) blocks;
 * - IANA IPv6 Address Space (ipv6-address-space): every block "Reserved by IETF" (only 2000::/3 is
 *   global unicast), which also catches forms no registry names, such as the SIIT IPv4-translated
 *   `::ffff:0:a.b.c.d` ([::ffff:0:7f00:1] reached loopback).
 * Each range has its registry name, its RFC and a `group`: the name an operator may allow it by.
 * An address is judged by the most specific range holding it (as routing does), and an address that
 * carries an IPv4 address (`embeds`) is judged by that IPv4 address too.
 */
export type SpecialRange = {
  cidr: string;
  name: string;
  rfc: string;
  group: SpecialGroup;
  /** The IPv4 addresses an address of this range carries (its 16 bytes → 4-byte slices). */
  embeds?: (bytes: Uint8Array) => Uint8Array[];
};

/** The names an operator may allow ranges by (WEBHOOKS_ALLOW_PRIVATE), besides CIDRs. */
export const SPECIAL_GROUPS = [
  'loopback',
  'private',
  'link-local',
  'unspecified',
  'multicast',
  'reserved',
  'documentation',
  'translation',
] as const;
export type SpecialGroup = (typeof SPECIAL_GROUPS)[number];

/** The last 32 bits (IPv4-mapped, -compatible, -translated, NAT64 /96). */
const last32 = (b: Uint8Array) => [b.slice(12, 16)];
/** RFC 6052 §2.2 with a /48 prefix: bits 48–63, then 72–87 (bits 64–71 are the `u` octet). */
const rfc6052At48 = (b: Uint8Array) => [Uint8Array.of(b[6]!, b[7]!, b[9]!, b[10]!)];
/** 6to4 (RFC 3056): 2002:AABB:CCDD::/48 carries AA.BB.CC.DD. */
const sixToFour = (b: Uint8Array) => [b.slice(2, 6)];
/** Teredo (RFC 4380 §4): the server's IPv4 in bits 32–63, the client's in the last 32, bits inverted. */
const teredo = (b: Uint8Array) => [b.slice(4, 8), b.slice(12, 16).map((x) => x ^ 0xff)];

export const IPV4_SPECIAL_RANGES: readonly SpecialRange[] = [
  { cidr: '0.0.0.0/8', name: '"This network"', rfc: 'RFC 791 §3.2', group: 'unspecified' },
  { cidr: '0.0.0.0/32', name: '"This host on this network"', rfc: 'RFC 1122 §3.2.1.3', group: 'unspecified' },
  { cidr: '10.0.0.0/8', name: 'Private-Use', rfc: 'RFC 1918', group: 'private' },
  { cidr: '100.64.0.0/10', name: 'Shared Address Space', rfc: 'RFC 6598', group: 'private' },
  { cidr: '127.0.0.0/8', name: 'Loopback', rfc: 'RFC 1122 §3.2.1.3', group: 'loopback' },
  { cidr: '169.254.0.0/16', name: 'Link Local', rfc: 'RFC 3927', group: 'link-local' },
  { cidr: '172.16.0.0/12', name: 'Private-Use', rfc: 'RFC 1918', group: 'private' },
  { cidr: '192.0.0.0/24', name: 'IETF Protocol Assignments', rfc: 'RFC 6890 §2.1', group: 'reserved' },
  { cidr: '192.0.0.0/29', name: 'IPv4 Service Continuity Prefix', rfc: 'RFC 7335', group: 'reserved' },
  { cidr: '192.0.0.8/32', name: 'IPv4 dummy address', rfc: 'RFC 7600', group: 'reserved' },
  { cidr: '192.0.0.9/32', name: 'Port Control Protocol Anycast', rfc: 'RFC 7723', group: 'reserved' },
  { cidr: '192.0.0.10/32', name: 'Traversal Using Relays around NAT Anycast', rfc: 'RFC 8155', group: 'reserved' },
  { cidr: '192.0.0.170/31', name: 'NAT64/DNS64 Discovery', rfc: 'RFC 7050 §2.2', group: 'reserved' },
  { cidr: '192.0.2.0/24', name: 'Documentation (TEST-NET-1)', rfc: 'RFC 5737', group: 'documentation' },
  { cidr: '192.31.196.0/24', name: 'AS112-v4', rfc: 'RFC 7535', group: 'reserved' },
  { cidr: '192.52.193.0/24', name: 'AMT', rfc: 'RFC 7450', group: 'reserved' },
  { cidr: '192.88.99.0/24', name: 'Deprecated (6to4 Relay Anycast)', rfc: 'RFC 7526', group: 'reserved' },
  { cidr: '192.168.0.0/16', name: 'Private-Use', rfc: 'RFC 1918', group: 'private' },
  { cidr: '192.175.48.0/24', name: 'Direct Delegation AS112 Service', rfc: 'RFC 7534', group: 'reserved' },
  { cidr: '198.18.0.0/15', name: 'Benchmarking', rfc: 'RFC 2544', group: 'reserved' },
  { cidr: '198.51.100.0/24', name: 'Documentation (TEST-NET-2)', rfc: 'RFC 5737', group: 'documentation' },
  { cidr: '203.0.113.0/24', name: 'Documentation (TEST-NET-3)', rfc: 'RFC 5737', group: 'documentation' },
  { cidr: '224.0.0.0/4', name: 'Multicast', rfc: 'RFC 5771', group: 'multicast' },
  { cidr: '240.0.0.0/4', name: 'Reserved', rfc: 'RFC 1112 §4', group: 'reserved' },
  { cidr: '255.255.255.255/32', name: 'Limited Broadcast', rfc: 'RFC 8190, RFC 919 §7', group: 'reserved' },
];

export const IPV6_SPECIAL_RANGES: readonly SpecialRange[] = [
  { cidr: '::1/128', name: 'Loopback Address', rfc: 'RFC 4291', group: 'loopback' },
  { cidr: '::/128', name: 'Unspecified Address', rfc: 'RFC 4291', group: 'unspecified' },
  {
    cidr: '::/96',
    name: 'IPv4-Compatible IPv6 Address (deprecated)',
    rfc: 'RFC 4291 §2.5.5.1',
    group: 'reserved',
    embeds: last32,
  },
  { cidr: '::ffff:0:0/96', name: 'IPv4-mapped Address', rfc: 'RFC 4291', group: 'translation', embeds: last32 },
  {
    cidr: '::ffff:0:0:0/96',
    name: 'IPv4-translated Address (SIIT)',
    rfc: 'RFC 2765 §2.1',
    group: 'reserved',
    embeds: last32,
  },
  { cidr: '64:ff9b::/96', name: 'IPv4-IPv6 Translat.', rfc: 'RFC 6052', group: 'translation', embeds: last32 },
  {
    cidr: '64:ff9b:1::/48',
    name: 'IPv4-IPv6 Translat. (local use)',
    rfc: 'RFC 8215',
    group: 'translation',
    embeds: rfc6052At48,
  },
  { cidr: '100::/64', name: 'Discard-Only Address Block', rfc: 'RFC 6666', group: 'reserved' },
  { cidr: '100:0:0:1::/64', name: 'Dummy IPv6 Prefix', rfc: 'RFC 9780', group: 'reserved' },
  { cidr: '2001::/23', name: 'IETF Protocol Assignments', rfc: 'RFC 2928', group: 'reserved' },
  { cidr: '2001::/32', name: 'TEREDO', rfc: 'RFC 4380, RFC 8190', group: 'translation', embeds: teredo },
  { cidr: '2001:1::1/128', name: 'Port Control Protocol Anycast', rfc: 'RFC 7723', group: 'reserved' },
  { cidr: '2001:1::2/128', name: 'Traversal Using Relays around NAT Anycast', rfc: 'RFC 8155', group: 'reserved' },
  { cidr: '2001:1::3/128', name: 'DNS-SD Service Registration Protocol Anycast', rfc: 'RFC 9665', group: 'reserved' },
  { cidr: '2001:2::/48', name: 'Benchmarking', rfc: 'RFC 5180', group: 'reserved' },
  { cidr: '2001:3::/32', name: 'AMT', rfc: 'RFC 7450', group: 'reserved' },
  { cidr: '2001:4:112::/48', name: 'AS112-v6', rfc: 'RFC 7535', group: 'reserved' },
  { cidr: '2001:10::/28', name: 'Deprecated (previously ORCHID)', rfc: 'RFC 4843', group: 'reserved' },
  { cidr: '2001:20::/28', name: 'ORCHIDv2', rfc: 'RFC 7343', group: 'reserved' },
  {
    cidr: '2001:30::/28',
    name: 'Drone Remote ID Protocol Entity Tags (DETs) Prefix',
    rfc: 'RFC 9374',
    group: 'reserved',
  },
  { cidr: '2001:db8::/32', name: 'Documentation', rfc: 'RFC 3849', group: 'documentation' },
  { cidr: '2002::/16', name: '6to4', rfc: 'RFC 3056', group: 'translation', embeds: sixToFour },
  { cidr: '2620:4f:8000::/48', name: 'Direct Delegation AS112 Service', rfc: 'RFC 7534', group: 'reserved' },
  { cidr: '3fff::/20', name: 'Documentation', rfc: 'RFC 9637', group: 'documentation' },
  { cidr: '5f00::/16', name: 'Segment Routing (SRv6) SIDs', rfc: 'RFC 9602', group: 'reserved' },
  { cidr: 'fc00::/7', name: 'Unique-Local', rfc: 'RFC 4193, RFC 8190', group: 'private' },
  { cidr: 'fe80::/10', name: 'Link-Local Unicast', rfc: 'RFC 4291', group: 'link-local' },
  { cidr: 'fec0::/10', name: 'Site-Local Unicast (deprecated)', rfc: 'RFC 3879', group: 'private' },
  { cidr: 'ff00::/8', name: 'Multicast', rfc: 'RFC 4291', group: 'multicast' },
];

/** IANA IPv6 Address Space: the blocks "Reserved by IETF" (RFC 4291); unicast outside 2000::/3 is not global. */
export const IPV6_RESERVED_BLOCKS: readonly SpecialRange[] = [
  '::/8',
  '100::/8',
  '200::/7',
  '400::/6',
  '800::/5',
  '1000::/4',
  '4000::/3',
  '6000::/3',
  '8000::/3',
  'a000::/3',
  'c000::/3',
  'e000::/4',
  'f000::/5',
  'f800::/6',
  'fe00::/9',
].map((cidr) => ({ cidr, name: 'Reserved by IETF', rfc: 'RFC 4291', group: 'reserved' as const }));
