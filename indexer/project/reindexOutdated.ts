import type { Config } from '../../internal/config.js';
import type { EsClient } from '../../internal/es.js';
import type { Logger } from '../../internal/logger.js';
import type { PgPool } from '../../internal/pg.js';
import {
  INDEX_FAMILIES,
  type IndexFamily,
  latestVersion,
  parseConcreteIndexName,
} from '../../search-mappings/aliases.js';
import { ReindexError, reindexFamily } from './reindex.js';

export type ReindexOutdatedParams = {
  config: Config;
  pg: PgPool;
  es: EsClient;
  logger: Logger;
  /** The concrete index each family's read alias points to (what ensureIndices returns). */
  current: Record<IndexFamily, string>;
};

/**
 * Rebuilds from PostgreSQL, at the newest mapping version this release ships, every search family
 * whose read alias still points at an older one (reindexFamily: a new index, an atomic alias swap,
 * no change lost). Run by each scheduler at start: a release that adds a mapping version (a new
 * document field) would otherwise leave the `publish` job failing against the old, strict mapping
 * until an operator ran `npm run es:reindex -- all`. Another scheduler already rebuilding the same
 * prefix is left to finish it.
 * @returns the families rebuilt here.
 */
export async function reindexOutdated({
  config,
  pg,
  es,
  logger,
  current,
}: ReindexOutdatedParams): Promise<IndexFamily[]> {
  const rebuilt: IndexFamily[] = [];
  for (const family of INDEX_FAMILIES) {
    const index = current[family];
    const latest = latestVersion(family);
    if ((parseConcreteIndexName(config.esIndexPrefix, family, index)?.version ?? 0) >= latest) continue;
    logger.warn({
      msg: 'search index of an older mapping: rebuilding it from PostgreSQL',
      family,
      index,
      version: latest,
    });
    try {
      await reindexFamily({ config, pg, es, logger, family });
      rebuilt.push(family);
    } catch (error) {
      if (!(error instanceof ReindexError && error.message.startsWith('another reindex'))) throw error;
      logger.info({ msg: 'search index upgrade left to the reindex already running', family });
    }
  }
  return rebuilt;
}
