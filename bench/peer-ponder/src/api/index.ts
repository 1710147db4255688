import { Hono } from 'hono';

/** Ponder requires an API module; the benchmark reads PostgreSQL directly, so it serves nothing of its own. */
export default new Hono();
