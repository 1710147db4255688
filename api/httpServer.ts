import { createServer, type Server } from 'node:http';
import type Koa from 'koa';

/**
 * Largest request head (request line + headers) accepted. Node's 16 KiB default is below what the
 * documented query limits allow (OPP-FILTERS lists of 2,000 characters, percent-encoded UTF-8), so
 * a valid request would get Node's bare 431; beyond this, 431 is the honest answer.
 */
export const MAX_HEADER_BYTES = 512 * 1024;

/** The HTTP server of `app` (api/server.ts and tests listening for real clients). */
export function createHttpServer(app: Koa): Server {
  return createServer({ maxHeaderSize: MAX_HEADER_BYTES }, app.callback());
}
