import type { ApiDeps } from '../../deps.js';
import { AppError, NotFoundError } from '../../errors.js';
import type { AuthState } from '../../identity/types.js';
import type { Handler } from '../../validate.js';
import {
  createCampaignList,
  deleteCampaignList,
  getCampaignList,
  listCampaignLists,
  updateCampaignList,
} from './repo.js';
import {
  MAX_IDS,
  type createListBody,
  type nameParams,
  type noQuery,
  type ownerListParams,
  type ownerParams,
  type updateListBody,
} from './schema.js';
import { serializeCampaignList } from './serialize.js';
import type { CampaignListRow } from './repo.js';
import { campaignVisibilityOf, hiddenCampaignIds } from '../../visibility/campaignVisibility.js';
import { PROBLEMS } from '../../problems/registry.js';

const ownerOf = (state: AuthState) => state.auth!.address.toLowerCase();

/**
 * Lists as the caller may read them: ids of private campaigns the caller may not see are left out
 * (README "Campaign visibility"), whoever owns the list; they stay stored, and come back when the
 * campaign is public again. Tables: campaign_privacy (and what readablePrivateIds reads).
 */
async function visibleLists(deps: ApiDeps, state: AuthState, rows: CampaignListRow[]) {
  const visible = await campaignVisibilityOf(deps, state, true);
  const hidden = await hiddenCampaignIds(
    deps.pg,
    visible,
    rows.flatMap((r) => r.campaign_ids),
  );
  return rows.map((r) => serializeCampaignList({ ...r, campaign_ids: r.campaign_ids.filter((id) => !hidden.has(id)) }));
}
const serialize = async (deps: ApiDeps, state: AuthState, row: CampaignListRow) =>
  (await visibleLists(deps, state, [row]))[0]!;

/** GET /v4/campaign-lists/{owner}: an owner's lists (anyone reads them). */
export function ownerListsHandler(deps: ApiDeps): Handler<{ params: typeof ownerParams; query: typeof noQuery }> {
  return async (ctx) => {
    ctx.body = await visibleLists(
      deps,
      ctx.state,
      await listCampaignLists(deps.pg, ctx.state.params.owner.toLowerCase()),
    );
  };
}

/** GET /v4/campaign-lists/{owner}/{name}: one list (names are case-insensitive). */
export function getListHandler(deps: ApiDeps): Handler<{ params: typeof ownerListParams; query: typeof noQuery }> {
  return async (ctx) => {
    const { owner, name } = ctx.state.params;
    const list = await getCampaignList(deps.pg, owner.toLowerCase(), name.toLowerCase());
    if (!list) throw new NotFoundError(`List ${name} of ${owner} not found`);
    ctx.body = await serialize(deps, ctx.state, list);
  };
}

/** POST /v4/campaign-lists: a new list of the caller's; a name it already uses is 409. */
export function createListHandler(deps: ApiDeps): Handler<{ body: typeof createListBody }> {
  return async (ctx) => {
    const body = ctx.state.body;
    const list = await createCampaignList(deps.pg, ownerOf(ctx.state), body.name.toLowerCase(), body.campaignIds);
    if (!list) throw new AppError(PROBLEMS.CONFLICT, `You already have a list named ${body.name.toLowerCase()}`);
    ctx.body = await serialize(deps, ctx.state, list);
  };
}

/** PATCH /v4/campaign-lists/{name}: rename the caller's list, add and remove ids (at most MAX_IDS in all). */
export function updateListHandler(deps: ApiDeps): Handler<{ params: typeof nameParams; body: typeof updateListBody }> {
  return async (ctx) => {
    const { name } = ctx.state.params;
    const body = ctx.state.body;
    const result = await updateCampaignList(deps.pg, ownerOf(ctx.state), name.toLowerCase(), {
      rename: body.name?.toLowerCase(),
      add: body.add,
      remove: body.remove,
      maxIds: MAX_IDS,
    });
    if (result === 'missing') throw new NotFoundError(`You have no list named ${name.toLowerCase()}`);
    if (result === 'conflict')
      throw new AppError(PROBLEMS.CONFLICT, `You already have a list named ${body.name!.toLowerCase()}`);
    if (result === 'too-large')
      throw new AppError(PROBLEMS.VALIDATION_FAILED, `A list holds at most ${MAX_IDS} campaign ids`, {
        errors: [{ field: 'add', message: `would grow the list past ${MAX_IDS} ids` }],
      });
    ctx.body = await serialize(deps, ctx.state, result);
  };
}

/** DELETE /v4/campaign-lists/{name}: deletes the caller's list. */
export function deleteListHandler(deps: ApiDeps): Handler<{ params: typeof nameParams }> {
  return async (ctx) => {
    const { name } = ctx.state.params;
    if (!(await deleteCampaignList(deps.pg, ownerOf(ctx.state), name.toLowerCase())))
      throw new NotFoundError(`You have no list named ${name.toLowerCase()}`);
    ctx.body = { success: true };
  };
}
