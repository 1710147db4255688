import type { Dependencies } from './types.js';
import { span } from './time.js';

type Row = { key: string; name: string; ok: boolean; details: string; latencyMs: number; error?: string };

/** Pure: one row per dependency, unreachable ones first (then a red cluster), the rest in a fixed order. */
export function dependencyRows(d: Dependencies, nowSeconds = Date.now() / 1000): Row[] {
  const es = d.elasticsearch;
  const rows: Row[] = [
    {
      key: 'postgres',
      name: 'PostgreSQL',
      ok: d.postgres.ok,
      details: '',
      latencyMs: d.postgres.latencyMs,
      error: d.postgres.error,
    },
    {
      key: 'elasticsearch',
      name: 'Elasticsearch',
      ok: es.ok && es.clusterStatus !== 'red',
      details: es.ok
        ? `cluster ${es.clusterStatus}, ${es.nodes} node${es.nodes === 1 ? '' : 's'}${es.unassignedShards ? `, ${es.unassignedShards} unassigned shards` : ''}`
        : '',
      latencyMs: es.latencyMs,
      error: es.error,
    },
    ...d.chains.map((c) => ({
      key: `rpc:${c.id}`,
      name: `${c.name} RPC (chain ${c.id})`,
      ok: c.rpc.ok,
      details:
        c.rpc.ok && c.rpc.head !== undefined
          ? `head ${c.rpc.head}${c.rpc.headTimestamp ? `, mined ${span(nowSeconds - c.rpc.headTimestamp)} ago` : ''}`
          : '',
      latencyMs: c.rpc.latencyMs,
      error: c.rpc.error,
    })),
  ];
  return [...rows.filter((r) => !r.ok), ...rows.filter((r) => r.ok)];
}

/** Every dependency's state: reachable or not, its facts (cluster health, head block), probe latency. */
export function DependencyTable({ dependencies }: { dependencies: Dependencies }) {
  return (
    <section class="ops-section" aria-labelledby="deps-title" data-testid="ops-dependencies">
      <h2 id="deps-title">Dependencies</h2>
      <div class="table-scroll">
        <table class="deps">
          <thead>
            <tr>
              <th scope="col">Dependency</th>
              <th scope="col">State</th>
              <th scope="col">Details</th>
              <th scope="col" class="num">
                Latency
              </th>
            </tr>
          </thead>
          <tbody>
            {dependencyRows(dependencies).map((r) => (
              <tr key={r.key} id={`dep-${r.key.replace(':', '-')}`} data-testid={`dep-${r.key}`} data-ok={String(r.ok)}>
                <th scope="row" data-label="Dependency">
                  {r.name}
                </th>
                <td data-label="State">
                  <span class={`badge ${r.ok ? 'success' : 'failed'}`}>
                    {r.ok ? 'reachable' : r.error ? 'unreachable' : 'unhealthy'}
                  </span>
                </td>
                <td data-label="Details">{r.error ? <span class="error">{r.error}</span> : r.details || '–'}</td>
                <td data-label="Latency" class="num">
                  {r.latencyMs} ms
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
