import type { ApiDeps } from '../deps.js';
import type { ProofSource } from '../reads/rewardProofs.js';
import type { Loaders } from './loaders.js';
import type { AuthState } from '../identity/types.js';
import { privateVisibility } from '../reads/campaign-access/visibility.js';

/**
 * What every resolver receives: the API deps, the proof source (api/reads/rewardProofs.ts), this request's batch loaders and the
 * caller's identity as the authenticate middleware resolved it (null when the handler ran without it).
 */
export type GraphqlContext = { deps: ApiDeps; proofs: ProofSource; loaders: Loaders; auth: AuthState | null };

/** Private campaigns a resolver may show: as REST `showPrivate`, for the caller of this request. */
export const visibilityOf = (ctx: GraphqlContext, showPrivate: boolean | undefined) =>
  ctx.auth ? privateVisibility(ctx.deps, ctx.auth, showPrivate) : Promise.resolve('none' as const);
