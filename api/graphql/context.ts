import type { ApiDeps } from '../deps.js';
import type { ProofCache } from '../routes/users/proofs.js';
import type { Loaders } from './loaders.js';

/** What every resolver receives: the API deps, the proof cache and this request's batch loaders. */
export type GraphqlContext = { deps: ApiDeps; proofs: ProofCache; loaders: Loaders };
