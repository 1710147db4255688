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
import { serializeCampaignList as serialize } from './serialize.js';

const ownerOf = (state: AuthState) => state.auth!.address.toLowerCase();

/** GET /v4/campaign-lists/{owner}: an owner's lists (anyone reads them). */
export function ownerListsHandler(deps: ApiDeps): Handler<{ params: typeof ownerParams; query: typeof noQuery }> {
  return async (ctx) => {
    ctx.body = (await listCampaignLists(deps.pg, ctx.state.params.owner.toLowerCase())).map(serialize);
  };
}

/** GET /v4/campaign-lists/{owner}/{name}: one list (names are case-insensitive). */
export function getListHandler(deps: ApiDeps): Handler<{ params: typeof ownerListParams; query: typeof noQuery }> {
  return async (ctx) => {
    const { owner, name } = ctx.state.params;
    const list = await getCampaignList(deps.pg, owner.toLowerCase(), name.toLowerCase());
    if (!list) throw new NotFoundError(`List ${name} of ${owner} not found`);
    ctx.body = serialize(list);
  };
}

/** POST /v4/campaign-lists: a new list of the caller's; a name it already uses is 409. */
export function createListHandler(deps: ApiDeps): Handler<{ body: typeof createListBody }> {
  return async (ctx) => {
    const body = ctx.state.body;
    const list = await createCampaignList(deps.pg, ownerOf(ctx.state), body.name.toLowerCase(), body.campaignIds);
    if (!list) throw new AppError(409, 'CONFLICT', `You already have a list named ${body.name.toLowerCase()}`);
    ctx.body = serialize(list);
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
      throw new AppError(409, 'CONFLICT', `You already have a list named ${body.name!.toLowerCase()}`);
    if (result === 'too-large')
      throw new AppError(400, 'VALIDATION_FAILED', `A list holds at most ${MAX_IDS} campaign ids`, {
        errors: [{ field: 'add', message: `would grow the list past ${MAX_IDS} ids` }],
      });
    ctx.body = serialize(result);
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
