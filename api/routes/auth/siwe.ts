import { randomBytes } from 'node:crypto';
import { getAddress, isAddressEqual, verifyMessage, type PublicClient } from 'viem';
import { isNodeFailure } from '../../chain/readChain.js';
import { createSiweMessage, parseSiweMessage, validateSiweMessage } from 'viem/siwe';

/** How long a sign-in nonce stays valid. */
export const NONCE_TTL_SECONDS = 5 * 60;

/**
 * A sign-in nonce: 128 bits from the operating system's CSPRNG as 32 hex characters, which EIP-4361
 * accepts (alphanumeric, at least 8). Not viem's generateSiweNonce: it slices one Math.random buffer
 * one character further each call, so each nonce is the previous one shifted (M4 of #29).
 */
export function generateSignInNonce(): string {
  return randomBytes(16).toString('hex');
}

export type BuildSignInMessageParams = { address: string; domain: string; uri: string; chainId?: number; now?: Date };

/**
 * An EIP-4361 (Sign-In with Ethereum) message for `address` (checksummed) with a fresh random nonce
 * expiring in NONCE_TTL_SECONDS.
 */
export function buildSignInMessage({ address, domain, uri, chainId = 1, now = new Date() }: BuildSignInMessageParams) {
  const nonce = generateSignInNonce();
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
  /** The `chainId` the client sent, if any: it must be the message's `Chain ID`. */
  chainId?: number | undefined;
  /**
   * Runs a read on a configured chain (within the request's chain-read bounds: api/chain/readChain.ts),
   * to ask a contract wallet (EIP-1271, EIP-6492) there; undefined for a chain not configured.
   */
  readOn?: (chainId: number) => ChainReader | undefined;
  /**
   * Whether the message's nonce was issued for this address and message and is neither expired nor used
   * (checked, not consumed: a refused signature leaves it usable). Asked before any signature check, so a
   * message with a nonce we never issued costs no chain call (a contract wallet's check is an eth_call of
   * CHAIN_CALL_GAS and a turn of the chain's gate).
   */
  nonceIsLive: (nonce: string) => Promise<boolean>;
  now?: Date;
};
/** Runs `read` with a client of one chain, within the bounds of the request's chain reads. */
export type ChainReader = <T>(read: (client: PublicClient) => Promise<T>) => Promise<T>;
export type CheckSignInResult =
  | { ok: true; nonce: string }
  /** `field: 'nonce'`: the nonce is unknown, expired or used (a 401, not a malformed request). */
  | { ok: false; field: string; reason: string };

/** Why a message whose nonce is not live is refused. */
export const NONCE_REFUSED = 'nonce is unknown, expired or already used';

/** Clock skew tolerated on `Issued At`. */
const ISSUED_AT_SKEW_MS = 60_000;

/**
 * Checks a signed sign-in message: well-formed EIP-4361, issued for `address` by us (our domain,
 * URI and chain from configuration), issued at most NONCE_TTL_SECONDS ago and not in the future,
 * with an expiry that has not passed, carrying a nonce we issued that is still live (`nonceIsLive`, asked
 * before any signature check), and signed by `address`: an EOA signature (ecrecover, on no
 * chain) or else a smart-contract wallet (EIP-1271 `isValidSignature`, EIP-6492) asked through viem's
 * publicClient.verifyMessage on the chain the signed message names. That chain must be configured;
 * a `chainId` sent beside the message must equal it. The chain is never the client's choice alone:
 * a contract that accepts everything on one chain would otherwise vouch for any message (M2 of #29).
 */
export async function checkSignIn({
  address,
  message,
  signature,
  expected,
  chainId,
  readOn = () => undefined,
  nonceIsLive,
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
  if (chainId !== undefined && chainId !== fields.chainId)
    return {
      ok: false,
      field: 'chainId',
      reason: `must be the message's Chain ID ${fields.chainId}, the chain the signature is checked on`,
    };
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
  if (!(await nonceIsLive(fields.nonce))) return { ok: false, field: 'nonce', reason: NONCE_REFUSED };
  const signed = await checkSigner({ address, message, signature, chainId: expected.chainId, readOn });
  return signed.ok ? { ok: true, nonce: fields.nonce } : signed;
}

/**
 * Whether `address` signed `message`: its own key (ecrecover, valid on every chain), else its contract
 * code on `chainId`, the chain the message names (a node failure is thrown: 503, not a refusal).
 */
async function checkSigner({
  address,
  message,
  signature,
  chainId,
  readOn,
}: Pick<CheckSignInParams, 'address' | 'message' | 'signature'> & {
  chainId: number;
  readOn: NonNullable<CheckSignInParams['readOn']>;
}): Promise<{ ok: true } | { ok: false; field: 'signature'; reason: string }> {
  const signer = getAddress(address);
  if (await verifyMessage({ address: signer, message, signature }).catch(() => false)) return { ok: true };
  const read = readOn(chainId);
  if (!read)
    return {
      ok: false,
      field: 'signature',
      reason: `is not the address's own (EOA) signature, and chain ${chainId} named in the message is not configured here, so no contract wallet can vouch for it`,
    };
  // A failing wallet (a revert, out of gas: an EIP-6492 factory may run any code) refuses; a failing node is a 503.
  const valid = await read((client) =>
    client.verifyMessage({ address: signer, message, signature }).catch((error: unknown) => {
      if (isNodeFailure(error)) throw error;
      return false;
    }),
  );
  return valid ? { ok: true } : { ok: false, field: 'signature', reason: 'does not match the address' };
}
