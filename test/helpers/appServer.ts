import { Agent, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type Koa from 'koa';
import supertest from 'supertest';

export type ServedApp = {
  /** http://127.0.0.1:<port> */
  url: string;
  /** A supertest request to the served app (`.get(path)`, `.post(path)`, …). */
  request(): ReturnType<typeof supertest>;
  /** Stops serving: open connections are closed. */
  close(): Promise<void>;
};

/**
 * Serves `app` on 127.0.0.1 on a port of its own, for every request of a suite: `supertest(app.callback())`
 * starts a server per request, and binding a new port, thousands of times a minute while the closed ones
 * linger in TIME_WAIT, cost the kernel a scan of the port range each time (17 of authMatrix's 36 s were in
 * that bind); and superagent's default of a new connection per request, a connect each: its requests here
 * keep their connections alive. The server does not keep the process alive.
 */
export async function serveApp(app: Koa): Promise<ServedApp> {
  const server = createServer(app.callback());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  server.unref();
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Requests reuse their connections (superagent opens one per request by default: a connect each). Every
  // method of supertest(url) (get, post, …) starts a request: each is given the agent.
  const agent = new Agent({ keepAlive: true });
  return {
    url,
    request: () =>
      new Proxy(supertest(url), {
        get: (target, method) => {
          const start = Reflect.get(target, method) as (...args: unknown[]) => supertest.Test;
          return (...args: unknown[]) => start.apply(target, args).agent(agent);
        },
      }),
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
