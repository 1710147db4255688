// Entry of a worker thread started from TypeScript sources (internal/moduleWorker.ts): loaders
// registered with `node --import tsx` do not reach worker threads in Node 20, so this plain module
// registers tsx in the thread, then runs the TypeScript module the worker is for. Never used by the
// production build, whose workers run the compiled JavaScript directly.
import { register } from 'tsx/esm/api';

register();
await import(process.env.MODULE_WORKER_URL);
