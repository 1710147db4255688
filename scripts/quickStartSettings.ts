import { isConfigVariable } from '../internal/config.js';

export const QUICK_START_ENV_HEADER = `Written by the quick start (npm start, scripts/dev.ts) at every start: the settings it runs with.
Every process of ours (npm run jobs:run / jobs:list / …, api:start, jobs:start) reads them under its
own environment, so the CLI acts with the configuration of the service it acts on. Remove the file
to stop that; set ENV_FILE to read another file instead.`;

/** Pure: the configuration variables set in `env` (what the quick start runs with), for the CLI. */
export function quickStartSettings(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter((e): e is [string, string] => !!e[1] && isConfigVariable(e[0]) && e[0] !== 'ENV_FILE'),
  );
}
