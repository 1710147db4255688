import type { Context } from 'koa';
import type { ApiDeps } from '../../deps.js';
import { AppError, NotFoundError } from '../../errors.js';
import type { AuthContext } from '../../middleware/auth.js';
import {
  createCampaignList,
  deleteCampaignList,
  getCampaignList,
  listCampaignLists,
  updateCampaignList,
} from './repo.js';
import { MAX_IDS } from './schema.js';
import { serializeCampaignList as serialize } from './serialize.js';

const ownerOf = (ctx: Context) => (ctx as AuthContext).state.auth!.address.toLowerCase();

/** GET /v4/campaign-lists/{owner}: an owner's lists (anyone reads them). */
export function ownerListsHandler(deps: ApiDeps) {
  return async (ctx: Context): Promise<void> => {
    ctx.body = (await listCampaignLists(deps.pg, (ctx.state.params as { owner: string }).owner.toLowerCase())).map(
      serialize,
    );
  };
}

/** GET /v4/campaign-lists/{owner}/{name}: one list (names are case-insensitive). */
export function getListHandler(deps: ApiDeps) {
  return async (ctx: Context): Promise<void> => {
    const { owner, name } = ctx.state.params as { owner: string; name: string };
    const list = await getCampaignList(deps.pg, owner.toLowerCase(), name.toLowerCase());
    if (!list) throw new NotFoundError(`List ${name} of ${owner} not found`);
    ctx.body = serialize(list);
  };
}

/** POST /v4/campaign-lists: a new list of the caller's; a name it already uses is 409. */
export function createListHandler(deps: ApiDeps) {
  return async (ctx: Context): Promise<void> => {
    const body = ctx.state.body as { name: string; campaignIds: string[] };
    const list = await createCampaignList(deps.pg, ownerOf(ctx), body.name.toLowerCase(), body.campaignIds);
    if (!list) throw new AppError(409, 'CONFLICT', `You already have a list named ${body.name.toLowerCase()}`);
    ctx.body = serialize(list);
  };
}

/** PATCH /v4/campaign-lists/{name}: rename the caller's list, add and remove ids (at most MAX_IDS in all). */
export function updateListHandler(deps: ApiDeps) {
  return async (ctx: Context): Promise<void> => {
    const { name } = ctx.state.params as { name: string };
    const body = ctx.state.body as { name?: string; add: string[]; remove: string[] };
    const result = await updateCampaignList(deps.pg, ownerOf(ctx), name.toLowerCase(), {
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
export function deleteListHandler(deps: ApiDeps) {
  return async (ctx: Context): Promise<void> => {
    const { name } = ctx.state.params as { name: string };
    if (!(await deleteCampaignList(deps.pg, ownerOf(ctx), name.toLowerCase())))
      throw new NotFoundError(`You have no list named ${name.toLowerCase()}`);
    ctx.body = { success: true };
  };
}
