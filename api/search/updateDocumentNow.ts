import type { ApiDeps } from '../deps.js';
import { ServiceUnavailableError } from '../errors.js';

/**
 * Applies a partial update to a search document right after its PostgreSQL write committed, so
 * reads see the change before the outbox entry (committed with the write) is projected. Best
 * effort: a document not published yet (404) is left to the projector; any other failure is
 * logged with `what` and the id, and the projector still brings the document in line.
 */
export async function updateDocumentNow(
  deps: Pick<ApiDeps, 'es' | 'logger'>,
  p: { index: string; id: string; doc: Record<string, unknown>; what: string; mustReachReads?: boolean },
): Promise<void> {
  // mustReachReads (a privacy change): refreshed before the request answers, and a failure is the
  // request's (503, retried by the client) instead of a window in which searches still serve the old flag.
  await deps.es
    .update({
      index: p.index,
      id: p.id,
      doc: p.doc,
      retry_on_conflict: 3,
      ...(p.mustReachReads ? { refresh: true } : {}),
    })
    .catch((error: unknown) => {
      if ((error as { meta?: { statusCode?: number } }).meta?.statusCode === 404) return;
      if (p.mustReachReads) throw new ServiceUnavailableError('elasticsearch', error);
      deps.logger.warn({
        msg: `${p.what} not written to the search document yet; the outbox will`,
        document_id: p.id,
        index: p.index,
        err: String(error),
      });
    });
}
