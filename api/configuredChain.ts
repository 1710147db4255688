import type { ApiDeps } from './deps.js';
import { ValidationError } from './errors.js';

/** The configured chain `chainId`, else a 400 naming `chainId` with the supported ids. */
export function configuredChain(deps: Pick<ApiDeps, 'config'>, chainId: number) {
  const chain = deps.config.chains.find((c) => c.id === chainId);
  if (!chain)
    throw new ValidationError([
      {
        field: 'chainId',
        message: `is not a supported chain (supported: ${deps.config.chains.map((c) => c.id).join(', ')})`,
      },
    ]);
  return chain;
}
