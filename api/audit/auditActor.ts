import type { Context } from 'koa';
import type { AuditEntry } from '../../domain/tables/audit.js';
import type { AuthState } from '../identity/types.js';

const ACTOR_NAME = /^[\w.@:+-]{1,100}$/;

/**
 * Who made a back-office write, for its audit row: `back-office`, or `back-office:<name>` when the caller names
 * itself in `x-audit-actor` (letters, digits and `._@:+-`, at most 100; anything else is left out, never guessed),
 * with the session's wallet when one was sent beside the credential; and the request id.
 */
export function auditActorOf(ctx: Context & { state: Partial<AuthState> }): Pick<AuditEntry, 'actor' | 'requestId'> {
  const named = ctx.get('x-audit-actor').trim();
  const parts = ['back-office'];
  if (ACTOR_NAME.test(named)) parts.push(named);
  const wallet = ctx.state.auth?.address;
  const actor = wallet ? `${parts.join(':')} (${wallet})` : parts.join(':');
  return { actor, requestId: (ctx.state as { requestId?: string }).requestId ?? null };
}
