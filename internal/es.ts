import { Client, SniffingTransport, type TransportOptions } from '@elastic/elasticsearch';
import { parseEsNodes } from './esNodes.js';

export type EsClient = Client;

/** Seconds before the client's one retry: 20–50 ms (the transport's default waits 1–2 s, which made every read 1–2 s slow while Elasticsearch was down). */
export function esRetryBackoffSeconds(): number {
  return 0.02 + Math.random() * 0.03;
}

/**
 * The client's default transport with a short retry backoff (the Client has no option for it).
 * It extends SniffingTransport, the Client's default, because the base Transport's sniff() does nothing.
 */
class ShortBackoffTransport extends SniffingTransport {
  constructor(options: TransportOptions) {
    super({ ...options, retryBackoff: esRetryBackoffSeconds });
  }
}

export type CreateEsClientParams = {
  /** One node URL, several separated by commas, or a list: the client's own node pool spreads requests over them. */
  node: string | readonly string[];
  requestTimeoutMs: number;
  /**
   * Ask the cluster for its nodes at start, every `sniffIntervalMs` and after a connection fault,
   * replacing the pool with their published HTTP addresses (ES_SNIFF_INTERVAL_MS; 0 or absent: off,
   * the configured list is the pool). Only where those addresses are reachable from this process.
   */
  sniffIntervalMs?: number;
};

/**
 * Elasticsearch 8 client with a bounded request timeout and short-paused retries, so a stopped
 * cluster fails a request in milliseconds. With several nodes, the client's weighted node pool
 * round-robins over them, lowers the weight of a node that failed (tried again now and then, and
 * back to full weight on its first success) and a failed attempt is retried on another node: one
 * retry per other node, so one node down never fails a request.
 */
export function createEsClient({ node, requestTimeoutMs, sniffIntervalMs = 0 }: CreateEsClientParams): EsClient {
  const nodes = parseEsNodes(node);
  return new Client({
    nodes,
    requestTimeout: requestTimeoutMs,
    maxRetries: Math.max(1, nodes.length - 1),
    Transport: ShortBackoffTransport,
    ...(sniffIntervalMs > 0
      ? { sniffOnStart: true, sniffInterval: sniffIntervalMs, sniffOnConnectionFault: true }
      : {}),
  });
}

/**
 * Names of the read alias, write alias and concrete index of one index family (docs/architecture.md#jobs-and-storage).
 */
export function indexNames(prefix: string, family: 'campaigns' | 'opportunities', version?: number) {
  const read = `${prefix}-${family}`;
  return { read, write: `${read}_write`, concrete: version === undefined ? undefined : `${read}_v${version}` };
}
