import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BaseError } from '../../internal/errors.js';
import { parseRewardTreeJson, RewardTreeFormatError, type RewardTreeFile } from '../decode/parseRewardTree.js';

export type FetchTreeParams = { chainId: number; root: string; signal?: AbortSignal };

/** Where reward trees are published, keyed by chain and root (config `rewardTrees.source`). */
export type RewardTreeSource = {
  kind: 'http' | 'directory';
  /** The URL template or the absolute directory, for logs. */
  location: string;
  /**
   * Fetches and validates the tree of `root`.
   * @returns the tree, or null when none is published for that root (404, missing file).
   * @throws RewardTreeFormatError when the document is not the requested tree; RewardTreeFetchError
   *   when it could not be read (after the bounded retries for transient faults).
   */
  fetchTree(params: FetchTreeParams): Promise<RewardTreeFile | null>;
};

export type CreateRewardTreeSourceOptions = {
  /** Deadline of one HTTP attempt, body included. */
  timeoutMs?: number;
  /** Retries after the first attempt, for network errors, timeouts, 408, 429 and 5xx. */
  retries?: number;
  /** First backoff delay; doubled per retry (a Retry-After header of up to 30 s wins). */
  retryDelayMs?: number;
};

/** The source setting is unusable (an HTTP template without `{chainId}` and `{root}`). */
export class RewardTreeSourceError extends BaseError {
  override name = 'RewardTreeSourceError';
}

/** A tree could not be read; `retryable` says whether another attempt later may succeed. */
export class RewardTreeFetchError extends BaseError {
  override name = 'RewardTreeFetchError';
  readonly retryable: boolean;

  constructor(message: string, options: { retryable: boolean; details?: Record<string, unknown>; cause?: unknown }) {
    super(message, options);
    this.retryable = options.retryable;
  }
}

const DEFAULTS: Required<CreateRewardTreeSourceOptions> = { timeoutMs: 10_000, retries: 3, retryDelayMs: 250 };

/**
 * Creates the reward-tree source of `source`: an http(s) URL template containing `{chainId}` and
 * `{root}` (e.g. `https://trees.example/{chainId}/{root}.json`), or a directory (path or file: URL)
 * holding `<dir>/<chainId>/<root>.json`. Roots are lower-case in URLs and file names.
 * @throws RewardTreeSourceError on a template without both placeholders.
 */
export function createRewardTreeSource(source: string, options: CreateRewardTreeSourceOptions = {}): RewardTreeSource {
  const opts = { ...DEFAULTS, ...options };
  if (/^https?:\/\//i.test(source)) {
    if (!source.includes('{chainId}') || !source.includes('{root}')) {
      throw new RewardTreeSourceError(`reward tree URL template must contain {chainId} and {root}: ${source}`);
    }
    return {
      kind: 'http',
      location: source,
      fetchTree: async ({ chainId, root, signal }) => {
        const url = source.replaceAll('{chainId}', String(chainId)).replaceAll('{root}', root.toLowerCase());
        const text = await fetchTextWithRetries(url, opts, signal);
        return text === null ? null : checkHeader(parseRewardTreeJson(text), chainId, root, url);
      },
    };
  }
  const dir = resolve(/^file:/i.test(source) ? fileURLToPath(source) : source);
  return {
    kind: 'directory',
    location: dir,
    fetchTree: async ({ chainId, root }) => {
      const file = join(dir, String(chainId), `${root.toLowerCase()}.json`);
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (cause) {
        if ((cause as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw new RewardTreeFetchError(`cannot read ${file}`, { retryable: true, cause, details: { file } });
      }
      return checkHeader(parseRewardTreeJson(text), chainId, root, file);
    },
  };
}

/** A document filed under one root must be that root's tree, for that chain. */
function checkHeader(tree: RewardTreeFile, chainId: number, root: string, where: string): RewardTreeFile {
  if (tree.chainId !== chainId || tree.root !== root.toLowerCase()) {
    throw new RewardTreeFormatError(
      `${where} holds the tree of chain ${tree.chainId} root ${tree.root}, not chain ${chainId} root ${root.toLowerCase()}`,
    );
  }
  return tree;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((done, fail) => {
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), fail(signal.reason)), { once: true });
  });

/**
 * GET `url` with a per-attempt timeout and exponential backoff on transient faults.
 * @returns the body of a 2xx, or null on 404/410.
 */
async function fetchTextWithRetries(
  url: string,
  opts: Required<CreateRewardTreeSourceOptions>,
  signal?: AbortSignal,
): Promise<string | null> {
  for (let attempt = 0; ; attempt++) {
    let failure: RewardTreeFetchError;
    let retryAfterMs: number | undefined;
    try {
      const timeout = AbortSignal.timeout(opts.timeoutMs);
      const response = await fetch(url, {
        headers: { accept: 'application/json' },
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
      if (response.ok) return await response.text();
      await response.body?.cancel().catch(() => {});
      if (response.status === 404 || response.status === 410) return null;
      const retryable = response.status === 408 || response.status === 429 || response.status >= 500;
      const retryAfter = Number(response.headers.get('retry-after'));
      if (Number.isFinite(retryAfter) && retryAfter > 0 && retryAfter <= 30) retryAfterMs = retryAfter * 1000;
      failure = new RewardTreeFetchError(`GET ${url}: HTTP ${response.status}`, {
        retryable,
        details: { url, status: response.status, attempts: attempt + 1 },
      });
    } catch (cause) {
      if (signal?.aborted) throw cause;
      // Network errors and our own per-attempt timeout (TimeoutError) are transient.
      failure = new RewardTreeFetchError(
        `GET ${url}: ${(cause as Error).name === 'TimeoutError' ? `no answer within ${opts.timeoutMs} ms` : 'network error'}`,
        {
          retryable: true,
          cause,
          details: { url, attempts: attempt + 1 },
        },
      );
    }
    if (!failure.retryable || attempt >= opts.retries) throw failure;
    await sleep(retryAfterMs ?? opts.retryDelayMs * 2 ** attempt, signal);
  }
}
