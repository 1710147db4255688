import { withTransaction as inWriteTransaction, type PgPool } from '../../../internal/pg.js';

export type IdpFlow = {
  state: string;
  code_verifier: string;
  nonce: string;
  mode: 'login' | 'link';
  session_address: string | null;
};
export type IdpLink = { issuer: string; subject: string; email: string; wallet_address: string };

/** How long a started sign-in may take at the provider. */
export const IDP_FLOW_TTL_SECONDS = 10 * 60;

/** Records a started flow (and sweeps a few expired ones). Tables: idp_flows. */
export async function insertFlow(pool: PgPool, flow: IdpFlow): Promise<void> {
  await inWriteTransaction(pool, async (tx) => {
    await tx.query(
      "DELETE FROM idp_flows WHERE state IN (SELECT state FROM idp_flows WHERE expires_at < now() - interval '1 hour' LIMIT 100)",
    );
    await tx.query(
      `INSERT INTO idp_flows (state, code_verifier, nonce, mode, session_address, expires_at) VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6))`,
      [flow.state, flow.code_verifier, flow.nonce, flow.mode, flow.session_address, IDP_FLOW_TTL_SECONDS],
    );
  });
}

/** Consumes a flow by state, once: a replayed or expired state gets null. Tables: idp_flows. */
export async function consumeFlow(pool: PgPool, state: string): Promise<IdpFlow | null> {
  return inWriteTransaction(
    pool,
    async (tx) =>
      (
        await tx.query<IdpFlow>(
          'UPDATE idp_flows SET used_at = now() WHERE state = $1 AND used_at IS NULL AND expires_at > now() RETURNING state, code_verifier, nonce, mode, session_address',
          [state],
        )
      ).rows[0] ?? null,
  );
}

export async function linkByIdentity(pool: PgPool, issuer: string, subject: string): Promise<IdpLink | null> {
  return (
    (await pool.query<IdpLink>('SELECT * FROM idp_links WHERE issuer = $1 AND subject = $2', [issuer, subject]))
      .rows[0] ?? null
  );
}

export async function linkByWallet(pool: PgPool, wallet: string): Promise<IdpLink | null> {
  return (
    (await pool.query<IdpLink>('SELECT * FROM idp_links WHERE wallet_address = $1', [wallet.toLowerCase()])).rows[0] ??
    null
  );
}

/**
 * Links a provider identity to a wallet. Re-linking the same pair refreshes the email; an identity
 * or a wallet already linked to another is refused ('conflict'). Tables: idp_links.
 */
export async function linkIdentity(pool: PgPool, link: IdpLink): Promise<'linked' | 'conflict'> {
  return inWriteTransaction(pool, async (tx) => {
    const { rows } = await tx.query<IdpLink>(
      'SELECT * FROM idp_links WHERE (issuer = $1 AND subject = $2) OR wallet_address = $3 FOR UPDATE',
      [link.issuer, link.subject, link.wallet_address],
    );
    if (
      rows.some(
        (r) => r.wallet_address !== link.wallet_address || r.issuer !== link.issuer || r.subject !== link.subject,
      )
    )
      return 'conflict';
    await tx.query(
      `INSERT INTO idp_links (issuer, subject, email, wallet_address) VALUES ($1, $2, $3, $4)
       ON CONFLICT (issuer, subject) DO UPDATE SET email = EXCLUDED.email`,
      [link.issuer, link.subject, link.email, link.wallet_address],
    );
    return 'linked';
  });
}
