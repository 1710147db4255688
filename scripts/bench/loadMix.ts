/**
 * The request mix of the load benchmark: opportunity searches with filters and bins (the search
 * benchmark's kinds), campaign lists, by-id reads, block-timestamp lookups, key-value reads and
 * writes, #33's analytics and totals reads, with their weights. `pickRequest` draws one request, every one with fresh parameters.
 */
import { KINDS, type Kind } from './searchQueries.js';

export type MixTargets = {
  opportunityIds: string[];
  campaignIds: string[];
  chainIds: number[];
  /** Timestamps covered by the stored block headers. */
  timestampRange: [number, number];
  kv: { store: string; apiKey: string; addresses: string[] };
  /** The #33 reads of the mix (rewardKinds.ts, over the reward data of rewardData.ts). */
  analytics: readonly Kind[];
};

export type MixRequest = {
  kind: string;
  method: 'GET' | 'PUT';
  path: string;
  headers?: Record<string, string>;
  body?: string;
};

type Entry = { kind: string; weight: number; make: (t: MixTargets, r: () => number, n: number) => MixRequest };

const pick = <T>(xs: readonly T[], r: () => number): T => xs[Math.floor(r() * xs.length)]!;
const qs = (p: Record<string, string>) => new URLSearchParams(p).toString();
const searchKinds = KINDS.filter((k) => !k.filterAndBins || k.path.includes('/count'));
const binKinds = KINDS.filter((k) => k.path.includes('/bins/') || k.path.includes('/aggregate/'));

export const MIX: readonly Entry[] = [
  {
    kind: 'opportunity search',
    weight: 30,
    make: (_t, r, n) => {
      const k = pick(searchKinds, r);
      return { kind: 'opportunity search', method: 'GET', path: `${k.path}?${qs(k.params(n))}` };
    },
  },
  {
    kind: 'bins / aggregates',
    weight: 10,
    make: (_t, r, n) => {
      const k = pick(binKinds, r);
      return { kind: 'bins / aggregates', method: 'GET', path: `${k.path}?${qs(k.params(n))}` };
    },
  },
  {
    kind: 'campaign list',
    weight: 15,
    make: (t, r) => ({
      kind: 'campaign list',
      method: 'GET',
      path: `/v4/campaigns?${qs({ chainId: String(pick(t.chainIds, r)), status: pick(['LIVE', 'PAST', 'SOON'], r), items: '20', page: String(Math.floor(r() * 5)) })}`,
    }),
  },
  {
    kind: 'by id',
    weight: 15,
    make: (t, r) =>
      r() < 0.5
        ? { kind: 'by id', method: 'GET', path: `/v4/opportunities/${pick(t.opportunityIds, r)}` }
        : { kind: 'by id', method: 'GET', path: `/v4/campaigns/${pick(t.campaignIds, r)}` },
  },
  {
    kind: 'block timestamp',
    weight: 10,
    make: (t, r) => ({
      kind: 'block timestamp',
      method: 'GET',
      path: `/v4/block-timestamp/block?${qs({ chainId: String(pick(t.chainIds, r)), timestamp: String(Math.floor(t.timestampRange[0] + r() * (t.timestampRange[1] - t.timestampRange[0]))) })}`,
    }),
  },
  {
    kind: 'kv read',
    weight: 12,
    make: (t, r) => ({
      kind: 'kv read',
      method: 'GET',
      path: `/v4/key-value-stores/${encodeURIComponent(t.kv.store)}/entries/${pick(t.kv.addresses, r)}`,
    }),
  },
  {
    kind: 'kv write',
    weight: 8,
    make: (t, r, n) => ({
      kind: 'kv write',
      method: 'PUT',
      path: `/v4/key-value-stores/${encodeURIComponent(t.kv.store)}/entries`,
      headers: { 'content-type': 'application/json', 'x-api-key': t.kv.apiKey },
      body: JSON.stringify({ address: pick(t.kv.addresses, r), value: JSON.stringify({ label: `w${n}` }) }),
    }),
  },
  {
    kind: 'analytics reads (#33)',
    weight: 8,
    make: (t, r, n) => {
      const k = pick(t.analytics, r);
      return {
        kind: 'analytics reads (#33)',
        method: 'GET',
        path: `${k.path}?${qs(k.params(n))}`,
        ...(k.headers ? { headers: k.headers } : {}),
      };
    },
  },
];

const total = MIX.reduce((s, e) => s + e.weight, 0);

/** Draws one request of the mix by weight. */
export function pickRequest(t: MixTargets, r: () => number, n: number): MixRequest {
  let x = r() * total;
  for (const e of MIX) {
    if ((x -= e.weight) < 0) return e.make(t, r, n);
  }
  return MIX[0]!.make(t, r, n);
}
