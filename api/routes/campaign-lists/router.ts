import Router from '@koa/router';
import type { Context } from 'koa';
import type { ApiDeps } from '../../deps.js';
import { AppError, NotFoundError } from '../../errors.js';
import { requireCredential, type AuthContext } from '../../middleware/auth.js';
import { fields, validate } from '../../validate.js';
import {
  createCampaignList,
  deleteCampaignList,
  getCampaignList,
  listCampaignLists,
  updateCampaignList,
  type CampaignListRow,
} from './repo.js';
import { describe } from '../../openapi/describe.js';
import { arr, bool, obj, str } from '../../openapi/schemaHelpers.js';

/** Most campaign ids one list holds. */
const MAX_IDS = 10_000;
const NAME = { type: 'string', minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9 _.-]+$' } as const;
const IDS = { type: 'array', maxItems: MAX_IDS, items: { type: 'string', pattern: '^[0-9]{1,20}$' } } as const;
const ADDRESS = fields.address;
const LIST = obj({ owner: str, name: str, campaignIds: arr(str), createdAt: str, updatedAt: str });
const none = { type: 'object', additionalProperties: false, properties: {} } as const;

const serialize = (r: CampaignListRow) => ({
  owner: r.owner,
  name: r.name,
  campaignIds: r.campaign_ids,
  createdAt: r.created_at.toISOString(),
  updatedAt: r.updated_at.toISOString(),
});
const ownerOf = (ctx: Context) => (ctx as AuthContext).state.auth!.address.toLowerCase();

/**
 * Campaign lists (spec: the `campaignLists` + `listOwner` filter of GET /v4/campaigns): named sets of
 * internal campaign ids owned by an address. Anyone reads any owner's lists; the owner — its wallet
 * session or one of its API keys — creates, renames, edits and deletes them. Names are
 * case-insensitive (stored lower-case). Tables: campaign_lists.
 */
export function campaignListsRouter(deps: ApiDeps): Router {
  const router = new Router();
  router.get(
    '/campaign-lists/:owner',
    describe({ summary: 'Campaign lists of an owner', response: arr(LIST) }),
    validate({ params: { type: 'object', required: ['owner'], properties: { owner: ADDRESS } }, query: none }),
    async (ctx) => {
      ctx.body = (await listCampaignLists(deps.pg, (ctx.state.params as { owner: string }).owner.toLowerCase())).map(
        serialize,
      );
    },
  );
  router.get(
    '/campaign-lists/:owner/:name',
    describe({ summary: 'One campaign list', response: LIST }),
    validate({
      params: { type: 'object', required: ['owner', 'name'], properties: { owner: ADDRESS, name: NAME } },
      query: none,
    }),
    async (ctx) => {
      const { owner, name } = ctx.state.params as { owner: string; name: string };
      const list = await getCampaignList(deps.pg, owner.toLowerCase(), name.toLowerCase());
      if (!list) throw new NotFoundError(`List ${name} of ${owner} not found`);
      ctx.body = serialize(list);
    },
  );
  router.post(
    '/campaign-lists',
    describe({ summary: 'Create a campaign list', response: LIST, errors: [409] }),
    requireCredential,
    validate({
      body: {
        type: 'object',
        additionalProperties: false,
        required: ['name'],
        properties: { name: NAME, campaignIds: { ...IDS, default: [] } },
      },
    }),
    async (ctx) => {
      const body = ctx.state.body as { name: string; campaignIds: string[] };
      const list = await createCampaignList(deps.pg, ownerOf(ctx), body.name.toLowerCase(), body.campaignIds);
      if (!list) throw new AppError(409, 'CONFLICT', `You already have a list named ${body.name.toLowerCase()}`);
      ctx.body = serialize(list);
    },
  );
  router.patch(
    '/campaign-lists/:name',
    describe({ summary: 'Rename a list or add and remove campaign ids', response: LIST, errors: [409] }),
    requireCredential,
    validate({
      params: { type: 'object', required: ['name'], properties: { name: NAME } },
      body: {
        type: 'object',
        additionalProperties: false,
        minProperties: 1,
        properties: { name: NAME, add: { ...IDS, default: [] }, remove: { ...IDS, default: [] } },
      },
    }),
    async (ctx) => {
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
    },
  );
  router.delete(
    '/campaign-lists/:name',
    describe({ summary: 'Delete a campaign list', response: obj({ success: bool }) }),
    requireCredential,
    validate({ params: { type: 'object', required: ['name'], properties: { name: NAME } } }),
    async (ctx) => {
      const { name } = ctx.state.params as { name: string };
      if (!(await deleteCampaignList(deps.pg, ownerOf(ctx), name.toLowerCase())))
        throw new NotFoundError(`You have no list named ${name.toLowerCase()}`);
      ctx.body = { success: true };
    },
  );
  return router;
}
