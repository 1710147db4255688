import { expect } from 'chai';
import type { Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { Harness } from '../../helpers/harness.js';

export type Session = { address: string; token: string; cookie: string };

/** The value the response's Set-Cookie header gives cookie `name` (empty when cleared), or undefined. */
export function cookieOf(res: { headers: Record<string, unknown> }, name: string): string | undefined {
  const cookies = (res.headers['set-cookie'] as string[] | undefined) ?? [];
  return cookies
    .map((c) => (c.startsWith(`${name}=`) ? c.slice(name.length + 1).split(';')[0] : undefined))
    .find((v) => v !== undefined);
}

/** The `jwt` cookie value in a response's Set-Cookie header, or undefined. */
export function jwtCookieOf(res: { headers: Record<string, unknown> }): string | undefined {
  return cookieOf(res, 'jwt');
}

/** Fetches a nonce message for the key's account and signs it with a real viem private-key account. */
export async function signedLogin(
  h: Harness,
  privateKey: Hex,
): Promise<{ address: string; message: string; signature: Hex; nonce: string }> {
  const account = privateKeyToAccount(privateKey);
  const res = await h.request().get(`/v4/auth/nonce/${account.address}`).expect(200);
  const signature = await account.signMessage({ message: res.body.message });
  return { address: account.address, message: res.body.message, signature, nonce: res.body.nonce };
}

/** Full wallet login; returns the session token (from the `jwt` cookie). */
export async function login(h: Harness, privateKey: Hex): Promise<Session> {
  const body = await signedLogin(h, privateKey);
  const res = await h
    .request()
    .post('/v4/auth/login')
    .send({ address: body.address, message: body.message, signature: body.signature })
    .expect(200);
  const token = jwtCookieOf(res);
  expect(token, 'jwt cookie').to.be.a('string').and.not.equal('');
  return { address: body.address.toLowerCase(), token: token!, cookie: `jwt=${token}` };
}
