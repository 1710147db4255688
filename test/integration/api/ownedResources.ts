import type { Hex } from 'viem';
import type { Harness } from '../../helpers/harness.js';
import { TEST_BACK_OFFICE_TOKEN } from '../../helpers/testConfig.js';
import { login, type Session } from './authFlow.js';

/** One wallet's session, API key and resources, with factories for fresh ones (destructive calls consume them). */
export type OwnedResources = {
  session: Session;
  apiKey: { id: string; rawKey: string };
  /** The session cookie plus the API key: what the owner sends to set things up. */
  asOwner: Record<string, string>;
  /** A fresh name (lists, stores, descriptions). */
  unique(): string;
  /** A fresh address (grantees, store entries). */
  freshAddress(): string;
  /** A new API key of the owner. */
  newKey(): Promise<{ id: string; rawKey: string }>;
  freshList(): Promise<string>;
  /** The owner's private WHITELIST store (`<owner>:<key>`), and fresh ones within the owner's quota. */
  kvKey: string;
  freshKvKey(): Promise<string>;
  /** A new entry of `kvKey`; its address. */
  freshEntry(): Promise<string>;
  /** A campaign row the owner created (id `campaign`). */
  campaign: string;
  /** A fresh address granted access to `campaign`. */
  grantee(): Promise<string>;
};

/** A new API key of the session's wallet (POST /v4/developer/keys). */
export async function createApiKey(
  h: Harness,
  cookie: string,
  description = 'test',
): Promise<{ id: string; rawKey: string }> {
  const res = await h.request().post('/v4/developer/keys/').set('Cookie', cookie).send({ description }).expect(200);
  return res.body as { id: string; rawKey: string };
}

/**
 * Signs `privateKey`'s wallet in and gives it an API key, a key-value quota (back office), a private
 * store and a campaign it created, through the API (the campaign as a row: no chain needed).
 * Tables: api_keys, kv_quotas, kv_stores, campaigns.
 */
export async function createOwnedResources(
  h: Harness,
  privateKey: Hex,
  { namePrefix = 'r', campaign = '4242424242' }: { namePrefix?: string; campaign?: string } = {},
): Promise<OwnedResources> {
  const session = await login(h, privateKey);
  let n = 0;
  const unique = () => `${namePrefix}${Date.now().toString(36)}${n++}`;
  const freshAddress = () => `0x${(++n).toString(16).padStart(40, '0')}`;
  const newKey = () => createApiKey(h, session.cookie, unique());
  const apiKey = await newKey();
  const asOwner = { Cookie: session.cookie, 'x-api-key': apiKey.rawKey };
  await h
    .request()
    .post('/v4/internal/key-value-stores/quotas')
    .set({ authorization: TEST_BACK_OFFICE_TOKEN })
    .send({ ownerAddress: session.address, maxConfigs: 1000, maxSizeLimit: 1000, allowedTypes: ['WHITELIST'] })
    .expect(200);
  const freshKvKey = async () =>
    (
      await h
        .request()
        .post('/v4/key-value-stores/self')
        .set(asOwner)
        .send({ key: unique(), type: 'WHITELIST', publicRead: false })
        .expect(200)
    ).body.key as string;
  const kvKey = await freshKvKey();
  await h.deps.pg.query(
    `INSERT INTO campaigns (id, distribution_chain_id, compute_chain_id, campaign_id, creator, reward_token, amount, campaign_type, start_timestamp,
       end_timestamp, campaign_data, block_number, block_hash, tx_hash, log_index, created_at, params)
     VALUES ($1, 31337, 31337, $2, $3, $4, 1, 1, 0, 1, '0x', 1, $2, $2, 0, now(), '{}')`,
    [campaign, `0x${'42'.repeat(32)}`, session.address, `0x${'01'.repeat(20)}`],
  );
  return {
    session,
    apiKey,
    asOwner,
    unique,
    freshAddress,
    newKey,
    freshList: async () => {
      const name = unique();
      await h.request().post('/v4/campaign-lists').set(asOwner).send({ name }).expect(200);
      return name;
    },
    kvKey,
    freshKvKey,
    freshEntry: async () => {
      const address = freshAddress();
      await h
        .request()
        .put(`/v4/key-value-stores/${kvKey}/entries`)
        .set(asOwner)
        .send({ address, value: '{}' })
        .expect(200);
      return address;
    },
    campaign,
    grantee: async () => {
      const userAddress = freshAddress();
      await h.request().post(`/v4/campaigns/${campaign}/access/grant`).set(asOwner).send({ userAddress }).expect(200);
      return userAddress;
    },
  };
}
