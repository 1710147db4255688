import { outboxMark, publishOutboxNow } from '../../domain/projection/publishNow.js';
import { type PgClient, withTransaction as inWriteTransaction } from '../../internal/pg.js';
import type { ApiDeps } from '../deps.js';

/**
 * Runs one back-office write (reference data, programs) in a transaction (the write, its audit row and the search
 * outbox entries of the documents it changes commit together), then publishes those entries at once with the projector
 * (domain/projection/publishNow.ts), so the campaign and opportunity documents carry the change before the request answers;
 * at most INLINE_PUBLISH_BATCHES batches of them (a request does bounded work: a chain renamed under more documents
 * leaves the rest queued for the publish job). A publish failure (Elasticsearch down) is logged: the entries stay
 * queued and the publish job projects them.
 */
export async function writeAndPublish<T>(deps: ApiDeps, write: (tx: PgClient) => Promise<T>): Promise<T> {
  const mark = await outboxMark(deps.pg);
  const result = await inWriteTransaction(deps.pg, write);
  await publishOutboxNow({ config: deps.config, pg: deps.pg, es: deps.es, logger: deps.logger }, mark).catch(
    (error: unknown) =>
      deps.logger.warn({ msg: 'reference data written; its documents wait for the publish job', err: String(error) }),
  );
  return result;
}
