import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { type OutboundAllowance, outboundRefusal } from './outboundAddress.js';

/** An outbound URL (or what its host resolves to) that may not be reached; `message` says why. */
export class OutboundRefusedError extends Error {
  override name = 'OutboundRefusedError';
}

/**
 * Resolves `host` (an IP literal is taken as is) and refuses it when any of its addresses lies in
 * a range `allowance` does not allow: one refused address is enough, since a later connection may
 * pick it.
 * @returns the addresses, all allowed.
 * @throws OutboundRefusedError naming the address and its range, or when the host does not resolve.
 */
export async function resolveAllowed(host: string, allowance: OutboundAllowance): Promise<LookupAddress[]> {
  const bare = host.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  const addresses = family
    ? [{ address: bare, family }]
    : await new Promise<LookupAddress[]>((resolve, reject) =>
        dnsLookup(bare, { all: true, verbatim: true }, (error, found) =>
          error
            ? reject(new OutboundRefusedError(`host ${bare} does not resolve (${error.code ?? error.message})`))
            : resolve(found),
        ),
      );
  if (!addresses.length) throw new OutboundRefusedError(`host ${bare} does not resolve`);
  for (const { address } of addresses) {
    const refused = outboundRefusal(address, allowance);
    if (refused) {
      const carried = refused.via ? ` carrying ${refused.via},` : '';
      throw new OutboundRefusedError(
        `${family ? 'address' : `host ${bare} resolves to`} ${address},${carried} a ${refused.group} address (${refused.name}, ${refused.cidr}, ${refused.rfc}; not allowed by WEBHOOKS_ALLOW_PRIVATE)`,
      );
    }
  }
  return addresses;
}

/**
 * A `lookup` for http.request that resolves the host again at connection time and hands the socket
 * only addresses it has just checked, so a name that resolved to a public address when the URL was
 * accepted cannot be rebound to an internal one afterwards (DNS rebinding).
 */
export function guardedLookup(allowance: OutboundAllowance): LookupFunction {
  return (hostname, options, callback) => {
    resolveAllowed(hostname, allowance).then(
      (addresses) => {
        const wanted = options.family ? addresses.filter((a) => a.family === options.family) : addresses;
        if (options.all) (callback as (e: null, a: LookupAddress[]) => void)(null, wanted);
        else callback(null, wanted[0]?.address ?? '', wanted[0]?.family ?? 4);
      },
      (error: Error) => callback(error as NodeJS.ErrnoException, '', 4),
    );
  };
}
