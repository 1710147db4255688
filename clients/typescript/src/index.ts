/**
 * Typed client of the Campaign Rewards API: openapi-fetch over the types openapi-typescript
 * generates from our OpenAPI document (./schema.ts, `npm run client:generate`). Every path, its
 * parameters, body and responses (problem bodies as `error`) are checked at compile time.
 *
 *   const api = createRewardsClient({ baseUrl: 'http://127.0.0.1:3000', apiKey: process.env.API_KEY });
 *   const { data, error } = await api.GET('/v4/opportunities', { params: { query: { chainId: '31337', items: 10 } } });
 *   const sub = api.subscribe({ filters: { type: ['claim.indexed'] }, onEvent: (e) => console.log(e.id, e.type) });
 */
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { paths } from './schema.js';
import { type SubscribeParams, type Subscription, subscribeEvents } from './subscribe.js';

export type { components, operations, paths } from './schema.js';
export type { SseMessage, SseParser } from './sseParser.js';
export { createSseParser } from './sseParser.js';
export type {
  EventFilters,
  EventStreamErrorCode,
  RewardsEvent,
  SubscribeConnection,
  SubscribeParams,
  Subscription,
} from './subscribe.js';
export { EventStreamError, subscribeEvents } from './subscribe.js';

export type RewardsClient = Client<paths> & {
  /** GET /v4/events as Server-Sent Events with resumption, on this client's base URL and credentials (./subscribe.ts). */
  subscribe(params: SubscribeParams): Subscription;
};

export type RewardsClientOptions = ClientOptions & {
  /** Sent as `x-api-key` on every request (higher rate limits, key-gated routes). */
  apiKey?: string;
};

/** A client for one API base URL (e.g. `https://api.example`, no `/v4`: paths carry it). */
export function createRewardsClient({ apiKey, headers, ...options }: RewardsClientOptions = {}): RewardsClient {
  const merged = new Headers(headers as HeadersInit | undefined);
  if (apiKey) merged.set('x-api-key', apiKey);
  const client = createClient<paths>({ ...options, headers: merged });
  const { baseUrl, fetch, credentials } = options;
  return Object.assign(client, {
    subscribe: (params: SubscribeParams) =>
      subscribeEvents({
        ...params,
        headers: merged,
        ...(baseUrl !== undefined ? { baseUrl } : {}),
        ...(fetch ? { fetch } : {}),
        ...(credentials ? { credentials } : {}),
      }),
  });
}
