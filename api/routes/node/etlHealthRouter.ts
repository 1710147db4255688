import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import { describe } from '../../openapi/describe.js';
import { arr, bool, int, obj, str } from '../../openapi/schemaHelpers.js';
import { validate } from '../../validate.js';
import { ETL_MAX_AGE_MINUTES, etlHealthHandler } from './statusHandlers.js';
import { etlHealthQuery } from './statusSchema.js';

const staleFile = obj({ prefix: str, name: str, ageMinutes: int });
const etlHealthSchema = obj({ success: bool, filesChecked: int, staleFile, staleFiles: arr(staleFile) }, [
  'staleFile',
  'staleFiles',
]);

/**
 * GET /v4/etl-health: whether the indexing pipeline keeps up, in the hosted shape (its "files" are our
 * job cursors: one per indexing job and configured chain).
 */
export function etlHealthRouter(deps: ApiDeps): Router {
  const router = new Router();
  router.get(
    ['/etl-health', '/etl-health/'],
    describe({
      summary: 'Whether every indexing job keeps up (hosted etl-health shape)',
      cacheControl: 'no-store',
      description: `Checks every job cursor of every configured chain (\`filesChecked\`): an indexing job's cursor is stale when its block trails the newest stored block header of the chain by more than \`maxAgeMinutes\` of chain time (default ${ETL_MAX_AGE_MINUTES}, as the hosted service's two hours); the \`blocks\` job's own cursor when its last successful run on the chain ended longer ago than that. 200 \`{ "success": true, "filesChecked": n }\` when none is stale; else 503 with \`success: false\`, the stalest as \`staleFile\` (\`prefix\` the job, \`name\` \`chain-<id>\`, \`ageMinutes\`) and, beyond the hosted shape, every stale one in \`staleFiles\`. Read from PostgreSQL only (no chain call): GET /v4/node/status compares the cursors with each node's head.`,
      response: etlHealthSchema,
      example: { success: true, filesChecked: 8 },
      responses: {
        503: {
          description: 'A job cursor is stale',
          schema: etlHealthSchema,
        },
      },
    }),
    validate({ query: etlHealthQuery }),
    etlHealthHandler(deps),
  );
  return router;
}
