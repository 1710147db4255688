/**
 * The problem codes of the API (RFC 9457 problem bodies, api/middleware/errorHandler.ts): one entry per
 * code with its status, the body's `title` and what it means. `new AppError(PROBLEMS.X, …)` takes an
 * entry, so TypeScript refuses a code not listed here; GET /problems/{slug} explains each one
 * (api/problems/router.ts), and every problem's `type` points there.
 */
export type ProblemDefinition = {
  /** The status the problem is answered with. */
  status: number;
  /** Other statuses it may be answered with (each said in `description`). */
  alsoStatus?: readonly number[];
  /** The problem body's `title`: the same for every occurrence of the code. */
  title: string;
  /** What happened and what the client can do, for the problem's page. */
  description: string;
  /** Whether the same request may succeed later; default: 408, 429, 502, 503 and 504 are retryable. */
  retryable?: boolean;
};

/** Human title of each status we emit. */
export const STATUS_TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  410: 'Gone',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

function definitions<const T extends Record<string, ProblemDefinition>>(
  defs: T,
): { readonly [C in keyof T & string]: T[C] & { readonly code: C } } {
  return Object.freeze(
    Object.fromEntries(Object.entries(defs).map(([code, d]) => [code, Object.freeze({ ...d, code })])),
  ) as never;
}

export const PROBLEMS = definitions({
  VALIDATION_FAILED: {
    status: 400,
    title: 'Bad Request',
    description:
      'A query parameter, path parameter or body field is missing or has a value the route does not accept. `errors` lists every bad field, named by its path as sent (`entries.0.value`, a query parameter name, or `body` for an unparseable body), with what is wrong with it. Fix the named fields and send the request again.',
  },
  BAD_REQUEST: {
    status: 400,
    title: 'Bad Request',
    description:
      'The request could not be read at all (a body that is not the JSON or form it claims to be, a broken encoding, a request the server cannot parse). Send a well-formed request.',
  },
  UNAUTHORIZED: {
    status: 401,
    title: 'Unauthorized',
    description:
      'The route needs a credential and none was sent, or the one sent is malformed, expired, revoked or unknown (an API key in `x-api-key`, a session cookie or bearer token, or the back-office token). Sign in again or send a valid key.',
  },
  FORBIDDEN: {
    status: 403,
    title: 'Forbidden',
    description:
      'The credential is valid but may not do this: the route is reserved to the back office, or the resource belongs to another owner, or the grant does not cover it.',
  },
  CROSS_SITE_REQUEST_REFUSED: {
    status: 403,
    title: 'Cross-site request refused',
    description:
      'A state-changing request carrying the session cookie came from a page of another origin (its Origin, Referer or Sec-Fetch-Site says so). Send it from the service’s own pages, or authenticate with an API key or bearer token instead of the cookie.',
  },
  NOT_FOUND: {
    status: 404,
    title: 'Not Found',
    description:
      'No route answers this path, or the resource it names does not exist, or it is private and the caller may not see it (the same answer, so its existence is not revealed).',
  },
  IDP_DISABLED: {
    status: 404,
    title: 'Not Found',
    description:
      'Identity-provider sign-in (OpenID Connect) is not enabled on this server (IDP_ISSUER_URL is unset): its routes answer this. Sign in with a wallet or an API key.',
  },
  METHOD_NOT_ALLOWED: {
    status: 405,
    title: 'Method Not Allowed',
    description:
      'The path exists but does not answer this method; the `Allow` header lists the methods it does answer.',
  },
  CONFLICT: {
    status: 409,
    title: 'Conflict',
    description:
      'The request conflicts with the current state of the resource: it already exists, was changed meanwhile, or is in a state that does not allow this change. `detail` says which; read the resource again before retrying.',
  },
  AMBIGUOUS_CAMPAIGN_ID: {
    status: 409,
    title: 'Conflict',
    description:
      'A campaign id was given without its chain and campaigns of that id exist on several chains. `candidates` lists them as `<chainId>-<campaignId>`: name one of them.',
  },
  INSUFFICIENT_CREDITS: {
    status: 409,
    title: 'Conflict',
    description:
      'The debit would take the balance below its floor. `balance` and `floor` give both; nothing was debited.',
  },
  STORE_FULL: {
    status: 409,
    title: 'Conflict',
    description:
      'The key-value store holds as many entries as its size limit allows and the new entries do not fit; nothing was written. `sizeLimit`, `count` and `adding` give the numbers: delete entries or ask for a larger store.',
  },
  EVENTS_EXPIRED: {
    status: 410,
    title: 'Gone',
    description:
      'The events after the requested position are no longer retained. `oldestId` is the oldest event still kept: start again from `after=0` (or without Last-Event-ID) and rebuild what depends on the log.',
  },
  PAYLOAD_TOO_LARGE: {
    status: 413,
    title: 'Payload Too Large',
    description: 'The request body is larger than the route accepts. Send a smaller body (split the batch).',
  },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    title: 'Unsupported Media Type',
    description:
      'The body’s Content-Type is not one the route accepts (JSON routes take `application/json`). Send the body with a type the route documents.',
  },
  UNPROCESSABLE_CONTENT: {
    status: 422,
    title: 'Unprocessable Content',
    description: 'The request is well-formed but cannot be processed as it stands; `detail` says why.',
  },
  NOT_AN_ERC20: {
    status: 422,
    title: 'Unprocessable Content',
    description:
      'The token named does not answer the ERC20 call the route makes on its chain (no `allowance`): the route only serves ERC20 tokens.',
  },
  RATE_LIMITED: {
    status: 429,
    title: 'Too Many Requests',
    description:
      'The caller (its API key, session or client address) sent more requests than its rate limit allows. `limit` gives the limit and `Retry-After` the seconds to wait; slow down and retry then.',
  },
  CONFIG_STORE_QUOTA_EXCEEDED: {
    status: 429,
    title: 'Too Many Requests',
    description:
      'The caller already holds as many stored campaign configurations that no campaign uses as one caller may (`maxPending`). One stops counting once a campaign commits to its hash or is associated with it, or `ttlDays` after it was last stored; `Retry-After` says when the oldest one expires.',
  },
  TOO_MANY_STREAMS: {
    status: 429,
    alsoStatus: [503],
    title: 'Too many event streams',
    description:
      'An event stream could not be opened: the caller (429, `scope: "caller"`) or its client address (429, `scope: "address"`) already holds its most concurrent streams, or this server holds its most streams (503, `scope: "process"`, with `Retry-After`). `maxStreams` gives the bound: close a stream, or retry later.',
    retryable: true,
  },
  INTERNAL: {
    status: 500,
    title: 'Internal Server Error',
    description:
      'An unexpected error occurred on our side. It has been logged with the request id: quote `requestId` when reporting it.',
  },
  BAD_GATEWAY: {
    status: 502,
    title: 'Bad Gateway',
    description:
      'A service this request depends on outside ours (the identity provider during sign-in) could not be reached or answered something unusable. Retry shortly.',
  },
  SERVICE_UNAVAILABLE: {
    status: 503,
    title: 'Service Unavailable',
    description:
      'A backing service (PostgreSQL, Elasticsearch, a chain’s RPC node) is down, overloaded or did not answer in time; `service` names it and `reason` may say more (`statement timeout`, `busy`, `deadline`, `budget`). Nothing is wrong with the request: retry shortly (after `Retry-After` when given), or narrow the filters for a timeout.',
  },
  REWARD_TREE_UNAVAILABLE: {
    status: 503,
    title: 'Service Unavailable',
    description:
      'The live root of a chain is known but its reward tree is not stored yet (not fetched, not published, refused as malformed or not hashing to the root: `treeStatus`), so the chain’s rewards are unknown rather than empty. `chainId`, `root` and `retryAfter` are given, with `Retry-After`: retry then.',
  },
  WEB_NOT_BUILT: {
    status: 503,
    title: 'Service Unavailable',
    description:
      'The web pages of this server are not built (an operator runs `npm run web:build`); the API itself works.',
    retryable: false,
  },
});

export type ProblemCode = keyof typeof PROBLEMS;
/** One entry of the registry, with its code. */
export type Problem = (typeof PROBLEMS)[ProblemCode];

/** The path segment of a problem's page: `VALIDATION_FAILED` → `validation-failed`. */
export const problemSlug = (code: ProblemCode): string => code.toLowerCase().replace(/_/g, '-');

/** Where each problem is explained; every problem body's `type` (GET /problems/{slug}, api/problems/router.ts). */
export const PROBLEM_TYPE_BASE = '/problems/';

/** The `type` URI of a problem: its page. */
export const problemTypeOf = (code: ProblemCode): string => `${PROBLEM_TYPE_BASE}${problemSlug(code)}`;

/** The entry of a page slug (null: no such problem). */
export function problemOfSlug(slug: string): Problem | null {
  return Object.values(PROBLEMS).find((p) => problemSlug(p.code) === slug) ?? null;
}

/** The generic problem of a 4xx a library threw with only a status (a body parser, the router). */
const GENERIC: Record<number, Problem> = {
  400: PROBLEMS.BAD_REQUEST,
  401: PROBLEMS.UNAUTHORIZED,
  403: PROBLEMS.FORBIDDEN,
  404: PROBLEMS.NOT_FOUND,
  405: PROBLEMS.METHOD_NOT_ALLOWED,
  409: PROBLEMS.CONFLICT,
  413: PROBLEMS.PAYLOAD_TOO_LARGE,
  415: PROBLEMS.UNSUPPORTED_MEDIA_TYPE,
  422: PROBLEMS.UNPROCESSABLE_CONTENT,
  429: PROBLEMS.RATE_LIMITED,
};

/** The problem of a bare status (another 4xx: BAD_REQUEST, a 400). */
export const problemOfStatus = (status: number): Problem => GENERIC[status] ?? PROBLEMS.BAD_REQUEST;
