import type { Context, Next } from 'koa';
import { ValidationError } from '../../../errors.js';

/** Form and multipart bodies carry campaignsParams as JSON text: parse it before validation. */
export async function parseCampaignsParams(ctx: Context, next: Next): Promise<void> {
  const body = (ctx.request as { body?: Record<string, unknown> }).body;
  if (body && typeof body['campaignsParams'] === 'string') {
    try {
      body['campaignsParams'] = JSON.parse(body['campaignsParams']);
    } catch {
      throw new ValidationError([
        { field: 'campaignsParams', message: 'must be an object (JSON text in form bodies)' },
      ]);
    }
  }
  await next();
}
