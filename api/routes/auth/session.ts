import type { Context } from 'koa';
import type { ApiDeps } from '../../deps.js';
import { AppError, ValidationError } from '../../errors.js';
import { signSession, SESSION_TTL_SECONDS, type SignSessionParams } from '../../identity/jwt.js';
import { setAuthCookie } from './cookies.js';
import { consumeNonceAndLoadUser, isNonceLive, type LoginUser } from './repo.js';
import type { LoginBody } from './schema.js';
import { readChain } from '../../chain/readChain.js';
import { checkSignIn, NONCE_REFUSED } from './siwe.js';
import { PROBLEMS } from '../../problems/registry.js';

/** The `jwt` cookie (see setAuthCookie), for the session's lifetime; `null` clears it. */
export function setSessionCookie(ctx: Context, deps: ApiDeps, token: string | null): void {
  setAuthCookie(ctx, deps, 'jwt', token, SESSION_TTL_SECONDS);
}

/** Signs a session, sets its cookie and answers the login body (`token` only in development). */
export function issueSession(ctx: Context, deps: ApiDeps, params: Omit<SignSessionParams, 'secret'>): void {
  const { token } = signSession({ secret: deps.config.jwtSecret, ...params });
  setSessionCookie(ctx, deps, token);
  ctx.body = deps.config.env === 'development' ? { success: true, token } : { success: true };
}

/**
 * Checks a Sign-In with Ethereum body and consumes its nonce. The nonce is checked (issued for this
 * address and message, unexpired, unused) before the signature, so that no chain call is made for a
 * message we did not issue; it is consumed only once the signature passed. A contract wallet (EIP-1271) is asked on
 * the chain the signed message names, through that chain's configured client; `chainId`, if sent, must
 * name the same chain.
 * @returns the user; throws 400 for a malformed message or a `chainId` other than the message's, 401 for
 * a bad signature (naming the chain when it is not configured) or a used nonce.
 */
export async function verifyWalletSignIn(deps: ApiDeps, body: LoginBody): Promise<LoginUser> {
  const checked = await checkSignIn({
    address: body.address,
    message: body.message,
    signature: body.signature,
    expected: deps.config.signIn,
    chainId: body.chainId,
    nonceIsLive: (nonce) => isNonceLive(deps.pg, { nonce, address: body.address, message: body.message }),
    readOn: (chainId) => {
      const chain = deps.rpc.get(chainId);
      // An EIP-6492 signature deploys its account through the factory it names first: CHAIN_CALL_GAS.
      const gas = BigInt(deps.config.chainReads.callGas);
      return chain && ((read) => readChain(deps, chain, { gas }, read));
    },
  });
  if (!checked.ok) {
    if (checked.field === 'nonce') throw nonceRefused();
    if (checked.field === 'signature')
      throw new AppError(PROBLEMS.UNAUTHORIZED, `signature ${checked.reason}`, {
        errors: [{ field: 'signature', message: checked.reason }],
      });
    throw new ValidationError([{ field: checked.field, message: checked.reason }]);
  }
  const user = await consumeNonceAndLoadUser(deps.pg, {
    nonce: checked.nonce,
    address: body.address,
    message: body.message,
  });
  // Used by a parallel login since it was checked (single use).
  if (!user) throw nonceRefused();
  return user;
}

const nonceRefused = () =>
  new AppError(PROBLEMS.UNAUTHORIZED, 'The nonce is unknown, expired or already used: request a new one', {
    errors: [{ field: 'message', message: NONCE_REFUSED }],
  });
