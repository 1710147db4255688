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
    address: getAddress(address), domain, uri, chainId, nonce, version: '1', issuedAt: now, expirationTime: expiresAt,
    statement: 'Sign in to the rewards API.',
  });
  return { message, nonce, expiresAt };
}

export type CheckSignInParams = { address: string; message: string; signature: `0x${string}`; client?: PublicClient };
export type CheckSignInResult = { ok: true; nonce: string } | { ok: false; field: string; reason: string };

/**
 * Checks a signed sign-in message: well-formed EIP-4361, issued for `address`, not expired, and
 * signed by `address`: an EOA signature (ecrecover) or, given a chain `client`, also a smart-contract
 * wallet (EIP-1271 `isValidSignature`, EIP-6492) through viem's publicClient.verifyMessage.
 */
export async function checkSignIn({ address, message, signature, client }: CheckSignInParams): Promise<CheckSignInResult> {
  const fields = parseSiweMessage(message);
  if (!fields.address || !fields.nonce || !fields.domain) return { ok: false, field: 'message', reason: 'is not a Sign-In with Ethereum message' };
  if (!isAddressEqual(fields.address, getAddress(address))) return { ok: false, field: 'message', reason: 'was issued for another address' };
  if (!validateSiweMessage({ message: fields, address: getAddress(address) })) return { ok: false, field: 'message', reason: 'has expired or is not valid yet' };
  const valid = await (client
    ? client.verifyMessage({ address: getAddress(address), message, signature })
    : verifyMessage({ address: getAddress(address), message, signature })).catch((error: unknown) => {
    if (isRetryableRpcError(error)) throw error; // the chain is unreachable: 503, not a bad signature
    return false;
  });
  if (!valid) return { ok: false, field: 'signature', reason: 'does not match the address' };
  return { ok: true, nonce: fields.nonce };
}
