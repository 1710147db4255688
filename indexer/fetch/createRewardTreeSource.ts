import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { classifyHttpStatus } from '../../internal/errorSources/http.js';
import { BaseError } from '../../internal/errors.js';
import { RewardTreeFormatError, type RewardTreeEntry, type RewardTreeFile } from '../decode/parseRewardTree.js';
import { readRewardTree, type RewardTreeHeader } from '../decode/readRewardTree.js';

export type FetchTreeParams = { chainId: number; root: string; signal?: AbortSignal };

/**
 * A published tree document as it arrives: its bytes (at most maxBytes), its size when known
 * (file size, Content-Length: for progress), and where it was read, for messages.
 */
export type TreeDocument = { where: string; size: number | null; bytes: AsyncIterable<Uint8Array> };

/** Where reward trees are published, keyed by chain and root (config `rewardTrees.source`). */
export type RewardTreeSource = {
  kind: 'http' | 'directory';
  /** The URL template or the absolute directory, for logs. */
  location: string;
  /**
   * Opens the document of `root` for reading as a stream (readRewardTree), never holding it whole.
   * @returns the document, or null when none is published for that root (404, missing file).
   * @throws RewardTreeFetchError when it could not be opened (after the bounded retries for
   *   transient faults); reading its bytes throws RewardTreeFetchError when the transfer breaks or
   *   stalls and RewardTreeFormatError past `maxBytes`.
   */
  openTree(params: FetchTreeParams): Promise<TreeDocument | null>;
  /**
   * The whole tree of `root`, validated, in memory: for small trees (tests, tools); the roots job
   * streams them (openTree).
   * @throws RewardTreeFormatError when the document is not the requested tree; RewardTreeFetchError as openTree.
   */
  fetchTree(params: FetchTreeParams): Promise<RewardTreeFile | null>;
};

export type CreateRewardTreeSourceOptions = {
  /** Deadline of one HTTP attempt's answer (status and headers), and the longest pause while its body arrives. */
  timeoutMs?: number;
  /** Largest document read (REWARD_TREE_MAX_BYTES); a larger one is refused as malformed. */
  maxBytes?: number;
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

  constructor(message: string, options: { retryable: boolean; details?: Record<string, unknown>; cause?: unknown }) {
    super(message, options);
  }
}

/** Default REWARD_TREE_MAX_BYTES: 4 GiB, ten times a million-leaf tree with a breakdown each. */
const DEFAULT_MAX_TREE_BYTES = 4 * 1024 ** 3;

const DEFAULTS: Required<CreateRewardTreeSourceOptions> = {
  timeoutMs: 10_000,
  retries: 3,
  retryDelayMs: 250,
  maxBytes: DEFAULT_MAX_TREE_BYTES,
};

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
    const openTree = async ({ chainId, root, signal }: FetchTreeParams): Promise<TreeDocument | null> => {
      const url = source.replaceAll('{chainId}', String(chainId)).replaceAll('{root}', root.toLowerCase());
      const opened = await openWithRetries(url, opts, signal);
      return opened && { where: url, size: opened.size, bytes: limited(opened.bytes, opts.maxBytes, url) };
    };
    return { kind: 'http', location: source, openTree, fetchTree: wholeTree(openTree) };
  }
  const dir = resolve(/^file:/i.test(source) ? fileURLToPath(source) : source);
  const openTree = async ({ chainId, root }: FetchTreeParams): Promise<TreeDocument | null> => {
    const file = join(dir, String(chainId), `${root.toLowerCase()}.json`);
    let size: number;
    try {
      size = (await stat(file)).size;
    } catch (cause) {
      if ((cause as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw new RewardTreeFetchError(`cannot read ${file}`, { retryable: true, cause, details: { file } });
    }
    return { where: file, size, bytes: limited(readFileBytes(file), opts.maxBytes, file) };
  };
  return { kind: 'directory', location: dir, openTree, fetchTree: wholeTree(openTree) };
}

/** A file's bytes; a read error is a RewardTreeFetchError (retried on a later run). */
async function* readFileBytes(file: string): AsyncGenerator<Uint8Array> {
  try {
    yield* createReadStream(file, { highWaterMark: 1024 * 1024 });
  } catch (cause) {
    throw new RewardTreeFetchError(`cannot read ${file}`, { retryable: true, cause, details: { file } });
  }
}

/** `bytes`, refused as malformed once past `maxBytes`. */
async function* limited(bytes: AsyncIterable<Uint8Array>, maxBytes: number, where: string): AsyncGenerator<Uint8Array> {
  let total = 0;
  for await (const chunk of bytes) {
    total += chunk.length;
    if (total > maxBytes)
      throw new RewardTreeFormatError(`${where} is larger than ${maxBytes} bytes (REWARD_TREE_MAX_BYTES)`, {
        details: { field: '/', maxBytes },
      });
    yield chunk;
  }
}

/** fetchTree over openTree: the document read whole with readRewardTree and its header checked. */
function wholeTree(openTree: RewardTreeSource['openTree']): RewardTreeSource['fetchTree'] {
  return async (params) => {
    const doc = await openTree(params);
    if (!doc) return null;
    const rewards: RewardTreeEntry[] = [];
    const reader = readRewardTree(doc.bytes);
    for (let next = await reader.next(); ; next = await reader.next()) {
      if (next.done) return { ...checkHeader(next.value, params.chainId, params.root, doc.where), rewards };
      for (const { entry } of next.value) rewards.push(entry);
    }
  };
}

/** A document filed under one root must be that root's tree, for that chain. */
export function checkHeader(tree: RewardTreeHeader, chainId: number, root: string, where: string): RewardTreeHeader {
  if (tree.chainId !== chainId || tree.root !== root.toLowerCase()) {
    throw new RewardTreeFormatError(
      `${where} holds the tree of chain ${tree.chainId} root ${tree.root}, not chain ${chainId} root ${root.toLowerCase()}`,
    );
  }
  return { root: tree.root, chainId: tree.chainId };
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((done, fail) => {
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), fail(signal.reason)), { once: true });
  });

/**
 * GET `url` with a per-attempt deadline for its answer and exponential backoff on transient faults.
 * @returns the body of a 2xx as it arrives (a pause longer than timeoutMs breaks it, as a
 *   retryable RewardTreeFetchError), or null on 404/410.
 */
async function openWithRetries(
  url: string,
  opts: Required<CreateRewardTreeSourceOptions>,
  signal?: AbortSignal,
): Promise<{ bytes: AsyncIterable<Uint8Array>; size: number | null } | null> {
  for (let attempt = 0; ; attempt++) {
    let failure: RewardTreeFetchError;
    let retryAfterMs: number | undefined;
    const stall = new AbortController();
    const timer = setTimeout(() => stall.abort(new DOMException('no answer', 'TimeoutError')), opts.timeoutMs);
    try {
      const response = await fetch(url, {
        headers: { accept: 'application/json' },
        signal: signal ? AbortSignal.any([signal, stall.signal]) : stall.signal,
      });
      if (response.ok && response.body) {
        const length = Number(response.headers.get('content-length'));
        return {
          bytes: bodyOf(response.body, url, opts.timeoutMs, stall, timer),
          size: Number.isSafeInteger(length) && length > 0 ? length : null,
        };
      }
      clearTimeout(timer);
      await response.body?.cancel().catch(() => {});
      if (response.status === 404 || response.status === 410) return null;
      const { retryable } = classifyHttpStatus(response.status);
      const retryAfter = Number(response.headers.get('retry-after'));
      if (Number.isFinite(retryAfter) && retryAfter > 0 && retryAfter <= 30) retryAfterMs = retryAfter * 1000;
      failure = new RewardTreeFetchError(`GET ${url}: HTTP ${response.status}`, {
        retryable,
        details: { url, status: response.status, attempts: attempt + 1 },
      });
    } catch (cause) {
      clearTimeout(timer);
      if (signal?.aborted) throw cause;
      // Network errors and our own deadline (TimeoutError) are transient.
      failure = new RewardTreeFetchError(
        `GET ${url}: ${stall.signal.aborted ? `no answer within ${opts.timeoutMs} ms` : 'network error'}`,
        { retryable: true, cause, details: { url, attempts: attempt + 1 } },
      );
    }
    if (!failure.retryable || attempt >= opts.retries) throw failure;
    await sleep(retryAfterMs ?? opts.retryDelayMs * 2 ** attempt, signal);
  }
}

/** A response body read chunk by chunk, the deadline renewed by each chunk; a break or stall is retryable. */
async function* bodyOf(
  body: ReadableStream<Uint8Array>,
  url: string,
  timeoutMs: number,
  stall: AbortController,
  firstTimer: NodeJS.Timeout,
): AsyncGenerator<Uint8Array> {
  let timer = firstTimer;
  try {
    for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
      clearTimeout(timer);
      timer = setTimeout(() => stall.abort(new DOMException('stalled', 'TimeoutError')), timeoutMs);
      yield chunk;
    }
  } catch (cause) {
    throw new RewardTreeFetchError(
      `GET ${url}: ${stall.signal.aborted ? `body stalled for ${timeoutMs} ms` : 'body broken off'}`,
      { retryable: true, cause, details: { url } },
    );
  } finally {
    clearTimeout(timer);
  }
}
