import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { type OutboundAllowance, outboundRefusal } from './outboundAddress.js';
import { BaseError } from './errors.js';

/** An outbound URL (or what its host resolves to) that may not be reached; `message` says why. */
export class OutboundRefusedError extends BaseError {
  override readonly userError = true;
  override name = 'OutboundRefusedError';
}

/** Resolves a host name (node's dns.lookup signature, all addresses). */
export type HostLookup = (
  host: string,
  callback: (error: NodeJS.ErrnoException | null, found: LookupAddress[]) => void,
) => void;

const systemLookup: HostLookup = (host, callback) => dnsLookup(host, { all: true, verbatim: true }, callback);

/**
 * Name lookups bounded for the whole process: dns.lookup runs on libuv's thread pool (4 threads,
 * shared with zlib and file reads), and a host name is anyone's to choose (a webhook URL), so a name
 * whose DNS server never answers must not hold the pool. At most `maxInFlight` lookups run at once
 * (a stuck one keeps its slot until the system gives up on it); a caller waits for a slot and for the
 * answer `timeoutMs` in all, then is refused.
 */
export function boundedLookup({
  lookup = systemLookup,
  maxInFlight = 2,
  timeoutMs = 5000,
}: {
  lookup?: HostLookup;
  maxInFlight?: number;
  timeoutMs?: number;
} = {}) {
  let inFlight = 0;
  const waiting: (() => void)[] = [];
  const release = () => {
    inFlight--;
    waiting.shift()?.();
  };
  return (host: string): Promise<LookupAddress[]> =>
    new Promise<LookupAddress[]>((resolve, reject) => {
      let settled = false;
      const timer = setTimeout(() => {
        settled = true;
        const queued = waiting.indexOf(start);
        if (queued >= 0) waiting.splice(queued, 1);
        reject(new OutboundRefusedError(`host ${host} did not resolve within ${timeoutMs} ms`));
      }, timeoutMs);
      timer.unref();
      function start() {
        inFlight++;
        lookup(host, (error, found) => {
          release();
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          if (error) reject(new OutboundRefusedError(`host ${host} does not resolve (${error.code ?? error.message})`));
          else resolve(found);
        });
      }
      if (inFlight < maxInFlight) start();
      else waiting.push(start);
    });
}

const lookupHost = boundedLookup();

/**
 * Resolves `host` (an IP literal is taken as is; a name through `lookup`, by default the process's
 * bounded lookups) and refuses it when any of its addresses lies in a range `allowance` does not
 * allow: one refused address is enough, since a later connection may pick it.
 * @returns the addresses, all allowed.
 * @throws OutboundRefusedError naming the address and its range, or when the host does not resolve (in time).
 */
export async function resolveAllowed(
  host: string,
  allowance: OutboundAllowance,
  lookup: (host: string) => Promise<LookupAddress[]> = lookupHost,
): Promise<LookupAddress[]> {
  const bare = host.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  const addresses = family ? [{ address: bare, family }] : await lookup(bare);
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
