/**
 * Typed client of the Campaign Rewards API: openapi-fetch over the types openapi-typescript
 * generates from our OpenAPI document (./schema.ts, `npm run client:generate`). Every path, its
 * parameters, body and responses (problem bodies as `error`) are checked at compile time.
 *
 *   const api = createRewardsClient({ baseUrl: 'http://127.0.0.1:3000', apiKey: process.env.API_KEY });
 *   const { data, error } = await api.GET('/v4/opportunities', { params: { query: { chainId: '31337', items: 10 } } });
 */
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { paths } from './schema.js';

export type { components, operations, paths } from './schema.js';

export type RewardsClient = Client<paths>;

export type RewardsClientOptions = ClientOptions & {
  /** Sent as `x-api-key` on every request (higher rate limits, key-gated routes). */
  apiKey?: string;
};

/** A client for one API base URL (e.g. `https://api.example`, no `/v4`: paths carry it). */
export function createRewardsClient({ apiKey, headers, ...options }: RewardsClientOptions = {}): RewardsClient {
  const merged = new Headers(headers as HeadersInit | undefined);
  if (apiKey) merged.set('x-api-key', apiKey);
  return createClient<paths>({ ...options, headers: merged });
}
