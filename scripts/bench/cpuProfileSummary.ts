/**
 * Where a process's time went, from a V8 CPU profile (`node --cpu-prof`, e.g. through
 * `BENCH_RSS_NODE_OPTIONS='--cpu-prof --cpu-prof-dir=/tmp/prof' npm run bench:backfill-rss`):
 * `npx tsx scripts/bench/cpuProfileSummary.ts <file.cpuprofile> [top]`.
 * Prints self time by place (idle, GC, each npm package, each of our folders, Node's internals)
 * and the `top` functions (default 15) by self time.
 */
import { readFileSync } from 'node:fs';

type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
};
type CpuProfile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number };

/** Pure: the place a frame belongs to: a V8 pseudo-frame, an npm package, one of our folders, or Node's internals. */
function placeOf({ functionName, url }: ProfileNode['callFrame']): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  const inModules = url.lastIndexOf('/node_modules/');
  if (inModules >= 0) {
    const [scope, name] = url.slice(inModules + '/node_modules/'.length).split('/');
    return scope!.startsWith('@') ? `${scope}/${name}` : scope!;
  }
  const ours = url.match(/\/(api|domain|indexer|internal|jobs|search-mappings|scripts|contracts)\/(?:([^/]+)\/)?/);
  return ours ? `ours: ${ours[1]}${ours[2] ? `/${ours[2]}` : ''}` : url;
}

const [file, topArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: cpuProfileSummary.ts <file.cpuprofile> [top]');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const selfMicros = new Map<number, number>();
profile.samples.forEach((id, i) => selfMicros.set(id, (selfMicros.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const total = [...selfMicros.values()].reduce((a, b) => a + b, 0);

const add = (map: Map<string, number>, key: string, micros: number) => map.set(key, (map.get(key) ?? 0) + micros);
const places = new Map<string, number>();
const functions = new Map<string, number>();
for (const [id, micros] of selfMicros) {
  const { callFrame } = byId.get(id)!;
  add(places, placeOf(callFrame), micros);
  const where = callFrame.url ? ` ${placeOf(callFrame)}:${callFrame.lineNumber + 1}` : '';
  add(functions, `${callFrame.functionName || '(anonymous)'}${where}`, micros);
}
const row = ([name, micros]: [string, number]) =>
  `  ${(micros / 1e6).toFixed(3).padStart(7)} s ${((micros / total) * 100).toFixed(1).padStart(5)} %  ${name}`;
const sorted = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1]);
console.log(`${file}: ${(total / 1e6).toFixed(2)} s sampled`);
console.log('self time by place:');
for (const entry of sorted(places).filter(([, m]) => m / total >= 0.005)) console.log(row(entry));
console.log(`top ${Number(topArg ?? 15)} functions by self time:`);
for (const entry of sorted(functions).slice(0, Number(topArg ?? 15))) console.log(row(entry));
