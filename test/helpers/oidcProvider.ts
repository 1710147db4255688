import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export type TestOidcProvider = {
  issuer: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  /** Drives the provider's own login and consent pages for `login` (the password is not checked) and returns the callback URL with code and state. */
  signIn(authUrl: string, login: string): Promise<URL>;
  stop(): Promise<void>;
};

/**
 * Accounts of the test provider: `<login>@example.com`, verified unless the login starts with
 * `unverified`; a login starting with `unstated` gets no `email_verified` claim at all.
 */
const account = (sub: string) => ({
  accountId: sub,
  claims: async () => ({
    sub,
    email: `${sub}@example.com`,
    ...(sub.startsWith('unstated') ? {} : { email_verified: !sub.startsWith('unverified') }),
  }),
});

/**
 * A real OpenID Connect provider (the maintained `oidc-provider` package) on a free loopback port,
 * with one confidential client whose redirect URI is `redirectUri`, PKCE required, and its
 * development login/consent pages, which `signIn` fills in like a browser (cookies kept per call).
 */
export async function startTestOidcProvider(redirectUri: string): Promise<TestOidcProvider> {
  const clientId = 'rewards-api';
  const clientSecret = 'test-client-secret-0123456789';
  const server = (await import('node:http')).createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    pkce: { required: () => true },
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    findAccount: async (_ctx, sub) => account(sub),
    cookies: { keys: ['test-cookie-key-0123456789'] },
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
  });
  provider.on('server_error', (_ctx, error) => console.error('oidc-provider server_error', error));
  server.on('request', provider.callback());

  async function signIn(authUrl: string, login: string): Promise<URL> {
    const jar = new Map<string, string>();
    const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    let next: { url: string; init?: RequestInit } = { url: authUrl };
    for (let hop = 0; hop < 20; hop++) {
      const res = await fetch(next.url, {
        ...next.init,
        redirect: 'manual',
        headers: { ...(next.init?.headers ?? {}), cookie: cookieHeader() },
      });
      for (const c of res.headers.getSetCookie()) {
        const [pair] = c.split(';');
        const at = pair!.indexOf('=');
        jar.set(pair!.slice(0, at), pair!.slice(at + 1));
      }
      const location = res.headers.get('location');
      if (location) {
        const target = new URL(location, next.url);
        if (target.href.startsWith(redirectUri)) return target;
        next = { url: target.href };
        continue;
      }
      const html = await res.text();
      const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
      const prompt = /name="prompt" value="([a-z]+)"/.exec(html)?.[1];
      if (!action || !prompt) throw new Error(`unexpected provider page (${res.status}): ${html.slice(0, 300)}`);
      const form = new URLSearchParams(prompt === 'login' ? { prompt, login, password: 'any' } : { prompt });
      next = {
        url: new URL(action, next.url).href,
        init: { method: 'POST', body: form, headers: { 'content-type': 'application/x-www-form-urlencoded' } },
      };
    }
    throw new Error('too many hops at the provider');
  }

  return {
    issuer,
    clientId,
    clientSecret,
    redirectUri,
    signIn,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
