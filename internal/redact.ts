/**
 * Error text fit to leave the process or be stored (health bodies, job_runs, /v4/internal/jobs,
 * logs). Providers put API keys in RPC URLs (path or query) and viem's messages carry the full URL
 * and the request body (issue #29, M3), so every such text goes through here, and only here.
 */

/** What stands in for a removed secret. */
export const REDACTED = '[redacted]';

/** A URL with an authority, up to whitespace or a quote (trailing prose punctuation is put back). */
const URL_PATTERN = /\b[a-z][a-z0-9+.-]{0,15}:\/\/[^\s"'<>`]+/gi;
const TRAILING_PUNCTUATION = /[.,;:!?)\]}]+$/;

/** A request body as viem prints it (`Request body: {...}`), or a line starting `body:`, up to the end of its line. */
const REQUEST_BODY = /(\brequest body:|^[ \t]*body:)[ \t]*\S[^\n]*/gim;

/** `name=value` pairs whose name says credential, outside URLs too (a path with a query in a message). */
const CREDENTIAL_PAIR =
  /\b((?:api[-_]?key|apikey|access[-_]?token|auth[-_]?token|token|secret|password|passwd|key|signature|sig)=)[^&\s"'<>`)\],;]+/gi;

/**
 * The URL reduced to scheme and host (`http://127.0.0.1:8545/[redacted]`): credentials, path, query
 * and fragment removed, since providers put keys in any of them. An unparsable URL is removed whole.
 */
export function redactUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return REDACTED;
  }
  const bare =
    !url.username && !url.password && (url.pathname === '/' || url.pathname === '') && !url.search && !url.hash;
  return `${url.protocol}//${url.host}${bare ? '' : `/${REDACTED}`}`;
}

/**
 * Pure: `text` without URLs' credentials, paths and query strings, credential `name=value` pairs
 * and request bodies. Whatever else the text says (status, details, the host that failed) stays.
 */
export function redactText(text: string): string {
  return text
    .replace(REQUEST_BODY, `$1 ${REDACTED}`)
    .replace(URL_PATTERN, (match) => {
      if (/^file:/i.test(match)) return match; // our own modules in stack traces
      const trailing = TRAILING_PUNCTUATION.exec(match)?.[0] ?? '';
      return redactUrl(match.slice(0, match.length - trailing.length)) + trailing;
    })
    .replace(CREDENTIAL_PAIR, `$1${REDACTED}`);
}

/**
 * Pure: a stored error text as read back (job_runs.error): redacted again on the way out, since
 * rows written before redaction existed carry raw viem messages. Null stays null.
 */
export function redactStored(text: string | null): string | null {
  return text === null ? null : redactText(text);
}

/**
 * Pure: a logged value with its text redacted (strings, and the string fields of an object or
 * error one level down), for the logger's `err`, `reason` and `stack` fields.
 */
export function redactLogged(value: unknown): unknown {
  if (typeof value === 'string') return redactText(value);
  if (value instanceof Error)
    return {
      type: value.name,
      message: redactText(value.message),
      ...(value.stack ? { stack: redactText(value.stack) } : {}),
    };
  if (value && typeof value === 'object' && !Array.isArray(value))
    return Object.fromEntries(
      Object.entries(value).map(([key, field]) => [key, typeof field === 'string' ? redactText(field) : field]),
    );
  return value;
}
