import { loadConfig } from '../internal/config.js';
import { createEsClient } from '../internal/es.js';
import { createLogger } from '../internal/logger.js';
import { ensureIndices } from './aliases.js';

// CLI: creates the search indices and aliases when absent (`npm run es:setup`).
const config = loadConfig();
const logger = createLogger({ level: config.logLevel, name: 'es-setup' });
const es = createEsClient({
  node: config.esUrl,
  requestTimeoutMs: config.esRequestTimeoutMs,
  sniffIntervalMs: config.esSniffIntervalMs,
});
try {
  const indices = await ensureIndices({ es, prefix: config.esIndexPrefix, logger, shape: config.esIndexShape });
  logger.info({ msg: 'search indices ready', indices });
} finally {
  await es.close();
}
