import { Client } from '@elastic/elasticsearch';

export type EsClient = Client;

/** Elasticsearch 8 client with a bounded request timeout and no sniffing (single loopback node). */
export function createEsClient({ node, requestTimeoutMs }: { node: string; requestTimeoutMs: number }): EsClient {
  return new Client({ node, requestTimeout: requestTimeoutMs, maxRetries: 1 });
}

/** Names of the read alias, write alias and concrete index of one index family (STYLE §6). */
export function indexNames(prefix: string, family: 'campaigns' | 'opportunities', version?: number) {
  const read = `${prefix}-${family}`;
  return { read, write: `${read}_write`, concrete: version === undefined ? undefined : `${read}_v${version}` };
}
