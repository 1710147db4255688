import { createHmac, randomBytes } from 'node:crypto';

/**
 * Webhook signatures as the Standard Webhooks spec (standardwebhooks.com) defines them, so an
 * integrator may verify ours with any of its libraries: the secret is `whsec_` + a base64 key, and
 * `webhook-signature` is `v1,` + base64 HMAC-SHA256(key, `${webhook-id}.${webhook-timestamp}.${body}`).
 */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** A user-given secret: the prefix and 24 to 64 bytes of base64 key (what generateWebhookSecret makes). */
export const WEBHOOK_SECRET_PATTERN = '^whsec_[A-Za-z0-9+/]{32,88}={0,2}$';

/** A new random secret (24 bytes of key). */
export function generateWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(24).toString('base64')}`;
}

export type SignWebhookParams = { secret: string; id: string; timestamp: number; body: string };

/** Pure: the `webhook-signature` header value of one delivery (`timestamp` in Unix seconds). */
export function signWebhook({ secret, id, timestamp, body }: SignWebhookParams): string {
  const key = Buffer.from(secret.slice(WEBHOOK_SECRET_PREFIX.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}
