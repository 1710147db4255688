import { constants } from 'node:zlib';
import compress from 'koa-compress';

/** Bodies below this many bytes go out as they are: framing and CPU would cost more than they save. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;
/** Brotli quality for bodies built per request (11, the library maximum, costs ~50× the CPU of 4 for a few % fewer bytes). */
export const BROTLI_QUALITY = 4;
/** gzip level: zlib's default trade-off. */
export const GZIP_LEVEL = 6;

/**
 * Response compression (koa-compress): brotli or gzip, as the client's `Accept-Encoding` prefers
 * (brotli on a tie), for compressible types (JSON, problem+json, CSV, the OpenAPI document, HTML,
 * JavaScript, CSS; not PNG) of at least COMPRESSION_THRESHOLD_BYTES; `Vary: Accept-Encoding` on
 * every answer. Mounted outside cacheHeaders: the ETag is computed on the uncompressed body (and is
 * weak, so it holds for every encoding of it) and a 304 has no body to compress. Without
 * `Accept-Encoding` nothing is compressed; deflate and zstd are not offered.
 */
export function compression() {
  return compress({
    threshold: COMPRESSION_THRESHOLD_BYTES,
    br: { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } },
    gzip: { level: GZIP_LEVEL },
    deflate: false,
    zstd: false,
    encodingPreference: ['br', 'gzip', 'identity'],
  });
}
