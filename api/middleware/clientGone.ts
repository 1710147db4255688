/** Error codes of a response that could not be finished because the client closed its connection. */
const CLIENT_GONE_CODES = new Set(['ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET', 'EPIPE', 'ECONNABORTED']);

/**
 * Pure: whether a failure Koa emitted is the client going away (it disconnected while a body was
 * streamed or compressed: "Premature close"), not a fault of ours. Such a failure is logged as
 * info, not as an error an operator must look at; any other failure stays an error.
 * @param aborted whether the request's socket was already closed or destroyed when it failed.
 */
export function isClientGone(error: unknown, aborted: boolean): boolean {
  // A reset from PostgreSQL or a chain node carries the same codes: only the client's own closed
  // socket makes it the client's doing.
  if (!aborted) return false;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && CLIENT_GONE_CODES.has(code)) return true;
  const message = error instanceof Error ? error.message : '';
  return /premature close|aborted|socket hang up/i.test(message);
}
