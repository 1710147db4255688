import type { EsClient } from '../../internal/es.js';
import { classifyHttpStatus } from '../../internal/errorSources/http.js';
import { BaseError } from '../../internal/errors.js';

export class PublishError extends BaseError {
  override name = 'PublishError';
  constructor(
    message: string,
    readonly failures: { id: string; status: number; reason: string }[],
  ) {
    // Retryable when every refused item was refused for load (429) or a server fault (5xx).
    super(message, {
      retryable: failures.length > 0 && failures.every((f) => classifyHttpStatus(f.status).retryable),
      details: { failures: failures.length },
    });
  }
}

export type BulkWriteParams = {
  es: EsClient;
  index: string;
  upserts: { id: string; document: Record<string, unknown> }[];
  deletes?: string[];
  refresh?: boolean;
};

/**
 * Writes documents with deterministic `_id`s (a replay overwrites, never duplicates) and deletes
 * documents whose source row is gone. Every bulk item is checked; a 404 on delete is success.
 * @throws PublishError listing each failed item.
 */
export async function bulkWrite({
  es,
  index,
  upserts,
  deletes = [],
  refresh = false,
}: BulkWriteParams): Promise<{ indexed: number; deleted: number; tookMs: number }> {
  if (!upserts.length && !deletes.length) return { indexed: 0, deleted: 0, tookMs: 0 };
  const operations: unknown[] = [];
  for (const u of upserts) operations.push({ index: { _index: index, _id: u.id } }, u.document);
  for (const id of deletes) operations.push({ delete: { _index: index, _id: id } });
  const res = await es.bulk({ operations, refresh });
  const failures: PublishError['failures'] = [];
  for (const item of res.items) {
    const [action, result] = Object.entries(item)[0] as [
      string,
      { _id?: string | null; status: number; error?: { reason?: string } },
    ];
    if (result.error && !(action === 'delete' && result.status === 404)) {
      failures.push({ id: result._id ?? '', status: result.status, reason: result.error.reason ?? 'unknown' });
    }
  }
  if (failures.length)
    throw new PublishError(`${failures.length} of ${res.items.length} bulk items failed on ${index}`, failures);
  return { indexed: upserts.length, deleted: deletes.length, tookMs: res.took };
}
