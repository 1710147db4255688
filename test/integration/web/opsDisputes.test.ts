import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { keccak256, toHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { disputeTree, resolveDispute, updateTree, type ActionTarget } from '../../../contracts/actions.js';
import { HARDHAT_TEST_KEYS } from '../../../contracts/clients.js';
import type { DeployedStack } from '../../../contracts/deploy.js';
import { buildWeb } from '../../../web/build.js';
import { eventuallyEquals, leaseBrowser, screenshot, watchErrors } from '../../helpers/browser.js';
import { prepareDisputers } from '../../helpers/disputes.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { TEST_BACK_OFFICE_TOKEN } from '../../helpers/testConfig.js';

const CHAIN_ID = 31337;
const [, disputerKey] = HARDHAT_TEST_KEYS;
const disputer = privateKeyToAccount(disputerKey!).address.toLowerCase();

/**
 * The operations page's dispute history in Chromium: a root disputed and revoked, another disputed and still open on
 * the devnet Distributor; after indexing, the page says the open one first and lists both with their outcome, as
 * GET /v4/disputes/{chainId} serves them.
 */
describe("operations page (/ops): a chain's root disputes in Chromium", function () {
  let h: Harness;
  let dist: string;
  let server: Server;
  let base: string;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let target: ActionTarget & { stack: DeployedStack };

  before(async function () {
    h = await createHarness({ chainIds: [CHAIN_ID] });
    const { devnet, stack } = h.chains[0]!;
    target = { rpcUrl: devnet.rpcUrl, chainId: CHAIN_ID, stack };
    await prepareDisputers(target, [disputerKey!]);
    await updateTree({ ...target, root: keccak256(toHex('ops-root-0')), mineUntilLive: true });
    await updateTree({ ...target, root: keccak256(toHex('ops-root-1')) });
    await disputeTree({ ...target, privateKey: disputerKey, reason: 'amounts too high' });
    await resolveDispute({ ...target, valid: true });
    await updateTree({ ...target, root: keccak256(toHex('ops-root-2')) });
    await disputeTree({ ...target, privateKey: disputerKey, reason: 'missing campaign' });
    for (const job of ['blocks', 'roots']) expect((await h.runJob(job)).status, job).to.equal('success');
    dist = mkdtempSync(join(tmpdir(), 'web-dist-'));
    await buildWeb({ outDir: dist });
    const app = h.createApp({
      webDist: dist,
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    browser = await leaseBrowser();
    page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
    errors = watchErrors(page);
  });

  after(async () => {
    await page?.close();
    await browser?.close();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    if (dist) rmSync(dist, { recursive: true, force: true });
    await h?.close();
  });

  it('shows the open dispute first, then the chain history with who, why and how each ended', async function () {
    const served = (await h.request().get(`/v4/disputes/${CHAIN_ID}`).expect(200)).body as {
      status: string;
      message: string;
    }[];
    expect(served.map((d) => [d.status, d.message])).to.deep.equal([
      ['open', 'missing campaign'],
      ['valid', 'amounts too high'],
    ]);
    await page.goto(`${base}/ops`);
    await page.fill('input[name=token]', TEST_BACK_OFFICE_TOKEN);
    await page.keyboard.press('Enter');
    await page.getByTestId('ops-disputes').waitFor();
    const open = page.getByTestId('dispute-open');
    await eventuallyEquals(() => open.count(), 1, 'open disputes');
    const openText = await open.textContent();
    expect(openText, String(openText)).to.match(
      new RegExp(
        `^Dispute open on .* \\(chain 31337\\) since .* UTC by ${disputer.slice(0, 8)}…${disputer.slice(-6)}: missing campaign$`,
      ),
    );
    const rows = page.getByTestId(`disputes-chain-${CHAIN_ID}`).getByTestId('dispute-row');
    expect(await rows.evaluateAll((r) => r.map((x) => x.getAttribute('data-status')))).to.deep.equal(['open', 'valid']);
    expect(await rows.nth(1).getByTestId('dispute-outcome').textContent()).to.equal(
      'valid: deposit refunded, root revoked',
    );
    expect(await rows.nth(1).textContent()).to.include('amounts too high');
    await screenshot(page, 'ops-disputes-1366');
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(390);
    await screenshot(page, 'ops-disputes-390');

    // Resolved (invalid) and re-indexed: nothing open any more, the outcome says the period restarted.
    await resolveDispute({ ...target, valid: false });
    for (const job of ['blocks', 'roots']) expect((await h.runJob(job)).status, job).to.equal('success');
    await page.reload();
    await page.getByTestId('disputes-none-open').waitFor();
    expect(await rows.nth(0).getAttribute('data-status')).to.equal('invalid');
    expect(await rows.nth(0).getByTestId('dispute-outcome').textContent()).to.match(
      /^invalid: deposit kept, dispute period restarted \(ends .* UTC\)$/,
    );
    expect(errors, 'console errors and uncaught exceptions').to.deep.equal([]);
  });
});
