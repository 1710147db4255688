import { reindexFamily } from '../../indexer/project/reindex.js';
import { INDEX_FAMILIES, type IndexFamily } from '../../search-mappings/aliases.js';
import { createProgressBar } from './progressBar.js';
import { UsageError, type Command } from './types.js';

/**
 * `reindex <campaigns|opportunities|all>`: rebuilds each family from PostgreSQL into a new index and
 * swaps its aliases atomically (indexer/project/reindex.ts); progress bar on stderr, progress logs
 * (count, rate, ETA) on stdout.
 */
export const reindexCommand: Command = {
  usage: `reindex <${INDEX_FAMILIES.join('|')}|all>`,
  needsIndices: true,
  async run(ctx, args) {
    const [target] = args;
    const families: readonly IndexFamily[] =
      target === 'all' ? INDEX_FAMILIES : INDEX_FAMILIES.filter((f) => f === target);
    if (!families.length) throw new UsageError(`reindex: name ${INDEX_FAMILIES.join(', ')} or all`);
    for (const family of families) {
      const bar = createProgressBar({ stream: ctx.err, label: `reindex ${family}`, unit: 'rows', total: 0 });
      const result = await reindexFamily({
        ...ctx.deps,
        family,
        onProgress: ({ done, total }) => bar.update(done, total),
      });
      bar.finish();
      ctx.out(
        `${family}: ${result.index} built from ${result.rows} rows (${result.documents} documents) in ${(result.durationMs / 1000).toFixed(1)}s; ` +
          `aliases moved from ${result.previous.join(', ') || 'none'} (deleted); ${result.replayed} outbox entries replayed`,
      );
    }
    return 0;
  },
};
