import { getAddress, isAddressEqual, verifyMessage, type PublicClient } from 'viem';
import { isRetryableRpcError } from '../../../internal/rpc.js';
import { createSiweMessage, generateSiweNonce, parseSiweMessage, validateSiweMessage } from 'viem/siwe';

/** How long a sign-in nonce stays valid. */
export const NONCE_TTL_SECONDS = 5 * 60;

export type BuildSignInMessageParams = { address: string; domain: string; uri: string; chainId?: number; now?: Date };

/**
 * An EIP-4361 (Sign-In with Ethereum) message for `address` (checksummed) with a fresh random nonce
 * expiring in NONCE_TTL_SECONDS.
 */
export function buildSignInMessage({ address, domain, uri, chainId = 1, now = new Date() }: BuildSignInMessageParams) {
  const nonce = generateSiweNonce();
  const expiresAt = new Date(now.getTime() + NONCE_TTL_SECONDS * 1000);
  const message = createSiweMessage({
    address: getAddress(address),
    domain,
    uri,
    chainId,
    nonce,
    version: '1',
    issuedAt: now,
    expirationTime: expiresAt,
    statement: 'Sign in to the rewards API.',
  });
  return { message, nonce, expiresAt };
}

/** What our own messages say (config.signIn): a message naming another domain, URI or chain is refused. */
export type SignInExpected = { domain: string; uri: string; chainId: number };
export type CheckSignInParams = {
  address: string;
  message: string;
  signature: `0x${string}`;
  expected: SignInExpected;
  client?: PublicClient;
  now?: Date;
};
export type CheckSignInResult = { ok: true; nonce: string } | { ok: false; field: string; reason: string };

/** Clock skew tolerated on `Issued At`. */
const ISSUED_AT_SKEW_MS = 60_000;

/**
 * Checks a signed sign-in message: well-formed EIP-4361, issued for `address` by us (our domain,
 * URI and chain from configuration), issued at most NONCE_TTL_SECONDS ago and not in the future,
 * with an expiry that has not passed, and signed by `address`: an EOA signature (ecrecover) or, given a chain `client`, also a smart-contract
 * wallet (EIP-1271 `isValidSignature`, EIP-6492) through viem's publicClient.verifyMessage.
 */
export async function checkSignIn({
  address,
  message,
  signature,
  expected,
  client,
  now = new Date(),
}: CheckSignInParams): Promise<CheckSignInResult> {
  const fields = parseSiweMessage(message);
  if (!fields.address || !fields.nonce || !fields.domain)
    return { ok: false, field: 'message', reason: 'is not a Sign-In with Ethereum message' };
  if (!isAddressEqual(fields.address, getAddress(address)))
    return { ok: false, field: 'message', reason: 'was issued for another address' };
  if (fields.domain !== expected.domain)
    return { ok: false, field: 'message', reason: `was issued for another domain than ${expected.domain}` };
  if (fields.uri !== expected.uri)
    return { ok: false, field: 'message', reason: `was issued for another URI than ${expected.uri}` };
  if (fields.chainId !== expected.chainId)
    return { ok: false, field: 'message', reason: `was issued for another chain than ${expected.chainId}` };
  const issuedAt = fields.issuedAt?.getTime();
  if (
    issuedAt === undefined ||
    Number.isNaN(issuedAt) ||
    issuedAt > now.getTime() + ISSUED_AT_SKEW_MS ||
    issuedAt < now.getTime() - NONCE_TTL_SECONDS * 1000 - ISSUED_AT_SKEW_MS
  ) {
    return { ok: false, field: 'message', reason: 'has no issued-at time within the sign-in window' };
  }
  if (!fields.expirationTime) return { ok: false, field: 'message', reason: 'has no expiration time' };
  if (!validateSiweMessage({ message: fields, address: getAddress(address), domain: expected.domain, time: now }))
    return { ok: false, field: 'message', reason: 'has expired or is not valid yet' };
  const valid = await (client
    ? client.verifyMessage({ address: getAddress(address), message, signature })
    : verifyMessage({ address: getAddress(address), message, signature })
  ).catch((error: unknown) => {
    if (isRetryableRpcError(error)) throw error; // the chain is unreachable: 503, not a bad signature
    return false;
  });
  if (!valid) return { ok: false, field: 'signature', reason: 'does not match the address' };
  return { ok: true, nonce: fields.nonce };
}
