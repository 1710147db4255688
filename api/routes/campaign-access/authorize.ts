import type { ApiDeps } from '../../deps.js';
import { AppError, NotFoundError } from '../../errors.js';
import type { AuthState } from '../../identity/types.js';
import type { InputOf } from '../../validate.js';
import * as repo from '../../reads/campaign-access/repo.js';
import type { idParams } from './schema.js';
import { PROBLEMS } from '../../problems/registry.js';

/** ctx.state of a campaign-access route: the caller and the campaign id of the path. */
export type AccessState = AuthState & { params: InputOf<typeof idParams> };

/**
 * The campaign, after checking the caller (past requireCredentialOrBackOffice) may act on it:
 * 'creator' (privacy) or 'manager' (grants). Refused: 403 on a campaign the caller may see, 404 on
 * one it may not (hidden and absent alike).
 */
export async function authorize(
  deps: ApiDeps,
  state: AccessState,
  role: 'creator' | 'manager',
): Promise<repo.AccessCampaign> {
  const campaign = await repo.loadAccessCampaign(deps.pg, state.params.id);
  if (!campaign) throw new NotFoundError(`No campaign ${state.params.id}`);
  if (state.backOffice) return campaign;
  const caller = state.auth!.address.toLowerCase();
  if (caller === campaign.creator) return campaign;
  const privacy = await repo.loadPrivacy(deps.pg, campaign.id);
  if (
    role === 'manager' &&
    (privacy.authorized.some((a) => a.address === caller && a.canManageAccess) ||
      (await repo.isGrantManager(deps.pg, campaign.id, caller)))
  )
    return campaign;
  // A private campaign the caller may not see is absent to it (404), as on every read; a public one is known.
  if (privacy.is_private && !(await repo.readablePrivateIds(deps.pg, caller, [campaign.id])).length)
    throw new NotFoundError(`No campaign ${state.params.id}`);
  throw new AppError(
    PROBLEMS.FORBIDDEN,
    role === 'creator'
      ? 'Only the campaign creator or the back office may change its privacy'
      : 'Only the creator or an address with canManageAccess may manage access to this campaign',
  );
}

/** Who the change is recorded as: the caller's wallet, or `back-office`. */
export const actor = (state: AuthState) => state.auth?.address.toLowerCase() ?? 'back-office';
