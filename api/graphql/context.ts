import type { ApiDeps } from '../deps.js';
import type { ProofSource } from '../reads/rewardProofs.js';
import type { Loaders } from './loaders.js';
import type { AuthState } from '../identity/types.js';

/**
 * What every resolver receives: the API deps, the proof source (api/reads/rewardProofs.ts), this request's batch loaders and the
 * caller's identity as the authenticate middleware resolved it (null when the handler ran without it).
 */
export type GraphqlContext = { deps: ApiDeps; proofs: ProofSource; loaders: Loaders; auth: AuthState | null };
