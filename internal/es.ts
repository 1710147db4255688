import { Client, Transport, type TransportOptions } from '@elastic/elasticsearch';

export type EsClient = Client;

/** Seconds before the client's one retry: 20–50 ms (the transport's default waits 1–2 s, which made every read 1–2 s slow while Elasticsearch was down). */
export function esRetryBackoffSeconds(): number {
  return 0.02 + Math.random() * 0.03;
}

/** The default transport with a short retry backoff (the Client has no option for it). */
class ShortBackoffTransport extends Transport {
  constructor(options: TransportOptions) {
    super({ ...options, retryBackoff: esRetryBackoffSeconds });
  }
}

/**
 * Elasticsearch 8 client with a bounded request timeout, no sniffing (single loopback node) and
 * one retry after a short pause, so a stopped cluster fails a request in milliseconds.
 */
export function createEsClient({ node, requestTimeoutMs }: { node: string; requestTimeoutMs: number }): EsClient {
  return new Client({ node, requestTimeout: requestTimeoutMs, maxRetries: 1, Transport: ShortBackoffTransport });
}

/**
 * Names of the read alias, write alias and concrete index of one index family (docs/architecture.md#jobs-and-storage).
 */
export function indexNames(prefix: string, family: 'campaigns' | 'opportunities', version?: number) {
  const read = `${prefix}-${family}`;
  return { read, write: `${read}_write`, concrete: version === undefined ? undefined : `${read}_v${version}` };
}
