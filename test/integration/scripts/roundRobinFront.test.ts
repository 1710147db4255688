import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { startRoundRobinFront, type RoundRobinFront } from '../../../scripts/roundRobinFront.js';

type Upstream = { url: string; hits: string[]; close(): Promise<void> };

/** A real upstream: answers its name, echoes POST bodies, and streams `/events` one event at a time. */
async function startUpstream(name: string): Promise<Upstream> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.url} ${req.headers['x-forwarded-for']}`);
    if (req.url === '/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('id: 1\ndata: first\n\n');
      return void setTimeout(() => res.end('id: 2\ndata: second\n\n'), 300);
    }
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => res.end(`${name}${body ? `:${body}` : ''}`));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

/** A port nothing listens on (bound once, then closed): connections to it are refused. */
async function refusingUrl(): Promise<string> {
  const up = await startUpstream('gone');
  await up.close();
  return up.url;
}

describe('scripts/roundRobinFront (a front over several API processes, #34)', () => {
  const opened: { close(): Promise<void> }[] = [];
  const front = async (upstreams: string[]): Promise<RoundRobinFront> => {
    const f = await startRoundRobinFront({ upstreams });
    opened.push(f);
    return f;
  };
  const upstream = async (name: string) => {
    const u = await startUpstream(name);
    opened.push(u);
    return u;
  };
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((o) => o.close()));
  });

  it('sends requests to the upstreams in turn and appends the caller to X-Forwarded-For', async () => {
    const [a, b] = [await upstream('a'), await upstream('b')];
    const f = await front([a.url, b.url]);
    const names = [];
    for (let i = 0; i < 4; i++) names.push(await (await fetch(`${f.url}/x`)).text());
    expect(names).to.deep.equal(['a', 'b', 'a', 'b']);
    await fetch(`${f.url}/y`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(a.hits.at(-1)).to.equal('GET /y 203.0.113.9, 127.0.0.1');
  });

  it('retries a GET whose connection was refused on the next upstream, and skips the refusing one for a while', async () => {
    const a = await upstream('a');
    const f = await front([await refusingUrl(), a.url]);
    for (let i = 0; i < 3; i++) expect(await (await fetch(`${f.url}/x`)).text()).to.equal('a');
    expect(f.stats()).to.include({ retried: 1, failed: 0 });
  });

  it('does not send a POST again: a refused one is a 502 problem', async () => {
    const a = await upstream('a');
    const f = await front([await refusingUrl(), a.url]);
    const res = await fetch(`${f.url}/x`, { method: 'POST', body: 'payload' });
    expect(res.status).to.equal(502);
    expect(res.headers.get('content-type')).to.equal('application/problem+json');
    expect(a.hits).to.deep.equal([]);
    expect(await (await fetch(`${f.url}/x`, { method: 'POST', body: 'payload' })).text()).to.equal('a:payload');
  });

  it('passes an event stream through as it comes, not when it ends', async () => {
    const a = await upstream('a');
    const f = await front([a.url]);
    const res = await fetch(`${f.url}/events`);
    expect(res.headers.get('content-type')).to.equal('text/event-stream');
    const reader = res.body!.getReader();
    const t0 = Date.now();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).to.equal('id: 1\ndata: first\n\n');
    expect(Date.now() - t0, 'first event before the upstream ended the stream').to.be.below(250);
    let rest = '';
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest += new TextDecoder().decode(r.value);
    expect(rest).to.equal('id: 2\ndata: second\n\n');
  });
});
