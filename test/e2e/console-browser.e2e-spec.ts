import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Browser, Locator, Page } from 'playwright-core';
import { describeWithBrowser, launchChromium } from '../support/chromium';
import { API_VERSION } from '@paykit/contracts';
import { findConsoleAssets } from '../../apps/gateway/src/http/console-assets';
import { eventually, stackMode, startTestStack, TestStack } from '../support/test-stack';

// The console is the same bundle in both modes and every action it takes is an API call: it runs in
// the embedded (behaviour) suite only.
const describeConsole = stackMode() === 'embedded' ? describeWithBrowser : describe.skip;

const ARTIFACTS = join(__dirname, '..', '..', 'test-artifacts', 'console');
// Above Playwright's own 30 s per wait, so a stuck step fails with Playwright's message naming it.
const STEP_TIMEOUT_MS = 60_000;

describeConsole('sandbox console (/console/) in headless Chromium', () => {
  let t: TestStack;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];
  /** Every request the console made to the server that is not one of its own static files. */
  const apiRequests: string[] = [];
  let delayedCardId: string;

  beforeAll(async () => {
    // The console is served from `npm run build`'s output: bring it up to date (nothing to do when it is).
    execFileSync(process.execPath, [join(__dirname, '..', '..', 'tools', 'build.js')]);
    if (!findConsoleAssets()) throw new Error('tools/build.js did not build the console');
    mkdirSync(ARTIFACTS, { recursive: true });
    // Real sandbox delays: the 005 card waits its 30 s, so only the test clock can activate it in time.
    t = await startTestStack({ env: { SANDBOX_TIME_SCALE: '1' } });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (!path.startsWith('/console/')) apiRequests.push(`${request.method()} ${path}`);
    });
    // Starting a stack and a browser on a shared, loaded machine.
  }, 180_000);

  afterAll(async () => {
    try {
      await browser?.close();
    } finally {
      await t?.stop();
    }
  }, 60_000);

  async function screenshot(name: string): Promise<void> {
    await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
  }

  async function open(pageTitle: string): Promise<void> {
    await page.getByRole('navigation').getByRole('link', { name: pageTitle, exact: true }).click();
    await page.getByRole('heading', { level: 1, name: pageTitle }).waitFor();
  }

  function row(table: string, text: string | RegExp): Locator {
    return page.locator(`table.${table} tbody tr`, { hasText: text });
  }

  it(
    'signs in, creates and verifies a customer, issues a delayed-activation card and another, authorizes it and sees the webhook delivery',
    async () => {
      await page.goto(`${t.stack.url}/console/`);
      await page.getByLabel('Token id').fill(t.credentials.tokenId);
      await page.getByLabel('Secret').fill(t.credentials.secret);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { level: 1, name: 'Customers' }).waitFor();
      // Kept for the tab only.
      expect(await page.evaluate(() => Object.keys(sessionStorage))).toEqual(['paykit.console.session']);
      expect(await page.evaluate(() => Object.keys(localStorage))).toEqual([]);

      await page.getByLabel('Name').fill('Ada Lovelace');
      await page.getByRole('button', { name: 'Create customer' }).click();
      const customerRow = row('customers', 'Ada Lovelace');
      await customerRow.waitFor();
      const customerId = (await customerRow.getAttribute('data-id'))!;
      expect(customerId).toMatch(/^Customer:/);
      await page.locator('.customer-detail').getByRole('button', { name: 'Run KYC verification' }).click();
      await page.locator('.customer-detail .status', { hasText: 'APPROVED' }).waitFor();
      // Fund the USDC account the cards will draw on (100 USDC in minor units).
      const usdc = page.locator('table.accounts tbody tr', { hasText: 'USDC' });
      await usdc.getByRole('button', { name: 'Fund USDC' }).click();
      await usdc.locator('.balance', { hasText: '100.000000 USDC' }).waitFor();
      await screenshot('1-customer');

      await open('Cards');
      await page.getByLabel('Cardholder').selectOption(customerId);
      await page.getByLabel('Funding source').locator('option', { hasText: 'USDC' }).first().waitFor({ state: 'attached' });
      await page.getByLabel('Issuance outcome').selectOption({ label: 'Delayed activation (005)' });
      await page.getByRole('button', { name: 'Issue card' }).click();
      const delayed = page.locator('table.cards tbody tr[data-platform-card-id$="-005"]');
      await delayed.locator('.card-state', { hasText: 'PROCESSING' }).waitFor();
      delayedCardId = (await delayed.getAttribute('data-id'))!;

      await page.getByLabel('Issuance outcome').selectOption({ label: 'Instant activation' });
      await page.getByRole('button', { name: 'Issue card' }).click();
      const instant = page.locator('table.cards tbody tr[data-platform-card-id$="-900"]');
      await instant.locator('.card-state', { hasText: 'ACTIVE' }).waitFor();
      await instant.click();
      await page.locator('.card-detail').getByLabel('Simulator').selectOption('authorization');
      await page.locator('.card-detail').getByLabel('Amount').fill('2500000');
      await page.locator('.card-detail').getByLabel('Descriptor suffix').selectOption({ label: 'Approved' });
      await page.getByRole('button', { name: 'Run simulator' }).click();
      const authorization = page.locator('table.card-transactions tbody tr', { hasText: 'AUTHORIZATION' });
      await authorization.locator('.transaction-status', { hasText: 'CONFIRMED' }).waitFor();
      const cardTransactionId = (await authorization.getAttribute('data-id'))!;
      // Clearing on the chosen transaction.
      await authorization.getByRole('radio').check();
      await page.getByRole('button', { name: 'Clearing' }).click();
      await authorization.locator('.transaction-status', { hasText: 'SETTLED' }).waitFor();
      await screenshot('2-cards');

      await open('Webhooks');
      // Arrives through the page's own polling of the delivery log, without a reload.
      const delivery = page.locator(`table.deliveries tbody tr[data-resource-id="${cardTransactionId}"]`).first();
      await delivery.waitFor();
      await delivery.click();
      await page.locator('.delivery-detail pre.payload', { hasText: cardTransactionId }).waitFor();
      // Checked in the page with WebCrypto against GET /config's webhookPublicKey, as a receiver would.
      await page.locator('.delivery-detail .signature-check', { hasText: 'valid (verified with the platform public key)' }).waitFor();
      await screenshot('3-webhooks');

      await open('Request log');
      await row('request-log', 'simulate/authorization').first().waitFor();
      await row('request-log', `/${API_VERSION}/customers`).filter({ hasText: 'POST' }).filter({ hasText: '201' }).first().waitFor();
      await screenshot('4-request-log');

      expect(pageErrors).toEqual([]);
      // Every action went through the public API (and `GET /` to find it).
      expect(apiRequests.filter((request) => !request.startsWith('GET / ') && request !== 'GET /' && !request.includes(`/${API_VERSION}/`))).toEqual([]);
    },
    STEP_TIMEOUT_MS,
  );

  it(
    'advances the test clock by 60 s and sees the 005 card turn ACTIVE',
    async () => {
      await open('Test clock');
      await page
        .locator('.clock-now')
        .filter({ hasText: /\d{4}-/ })
        .waitFor();
      await page.getByLabel('Seconds to advance').fill('60');
      await page.getByRole('button', { name: 'Advance clock' }).click();
      await page.locator('.clock-advanced', { hasText: '60 s' }).waitFor();
      await open('Cards');
      const delayed = page.locator(`table.cards tbody tr[data-id="${delayedCardId}"] .card-state`);
      // The advance answers once the activation has started: wait for its outcome through the public
      // API (the same card the console shows), then read it in the console.
      await eventually(async () => ((await t.api.get(`/cards/${delayedCardId}`)).body.state === 'ACTIVE' ? true : undefined));
      await page.getByRole('button', { name: 'Refresh' }).first().click();
      await delayed.filter({ hasText: 'ACTIVE' }).waitFor();
      expect(await delayed.innerText()).toContain('ACTIVE');
      await screenshot('5-clock');
      expect(pageErrors).toEqual([]);
    },
    STEP_TIMEOUT_MS,
  );

  it(
    'uses the sandbox tools: saves and restores a snapshot, adds and removes a fault, replays webhooks to a listener, shows the MCP endpoint, resets',
    async () => {
      const replayed: string[] = [];
      const listener = createServer((request, response) => {
        request.resume();
        request.on('end', () => {
          replayed.push(String(request.headers['x-paykit-replay']));
          response.writeHead(200).end();
        });
      });
      await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
      try {
        await open('Sandbox tools');
        await page.getByLabel('Snapshot name').fill('console-start');
        await page.getByRole('button', { name: 'Save snapshot' }).click();
        await row('snapshots', 'console-start').waitFor();

        await page.getByLabel('Operation or path prefix').fill('POST /quotes');
        await page.getByLabel('Faulted calls').fill('3');
        await page.getByRole('button', { name: 'Add fault' }).click();
        const fault = row('faults', 'POST /quotes');
        await fault.locator('.fault-remaining', { hasText: '3 of 3' }).waitFor();
        expect((await t.api.get('/sandbox/faults')).body).toEqual([expect.objectContaining({ operation: 'POST /quotes', effect: 'ERROR', status: 503, remaining: 3 })]);
        await fault.getByRole('button', { name: 'Remove' }).click();
        await fault.waitFor({ state: 'detached' });
        expect((await t.api.get('/sandbox/faults')).body).toEqual([]);

        const deliveries = (await t.api.get('/webhooks/deliveries?limit=100')).body.data.length;
        expect(deliveries).toBeGreaterThan(0);
        await page.getByLabel('Replay URL').fill(`http://127.0.0.1:${(listener.address() as AddressInfo).port}/hooks`);
        await page.getByRole('button', { name: 'Replay webhooks' }).click();
        const replay = page.locator('.replay');
        await replay.waitFor();
        const replayId = (await replay.getAttribute('data-id'))!;
        await eventually(async () => (replayed.length === deliveries ? true : undefined));
        expect(new Set(replayed)).toEqual(new Set([replayId]));
        await page.getByRole('button', { name: 'Refresh replay' }).click();
        await replay.locator('.replay-counts', { hasText: `${deliveries} delivered, 0 failed of ${deliveries}` }).waitFor();

        await page.locator('.mcp-url', { hasText: `/${API_VERSION}/sandbox/mcp` }).waitFor();
        await screenshot('6-sandbox-tools');

        page.once('dialog', (dialog) => void dialog.accept());
        await page.getByRole('button', { name: 'Reset sandbox' }).click();
        await page.getByRole('status').filter({ hasText: 'reset' }).waitFor();
        expect((await t.api.get('/customers')).body.data).toEqual([]);
        await row('snapshots', 'console-start').getByRole('button', { name: 'Restore' }).click();
        await page.getByRole('status').filter({ hasText: 'Restored snapshot console-start' }).waitFor();
        expect((await t.api.get('/customers')).body.data.map((customer: { fullName: string }) => customer.fullName)).toContain('Ada Lovelace');
        expect(pageErrors).toEqual([]);
      } finally {
        listener.closeAllConnections();
        await new Promise((resolve) => listener.close(resolve));
      }
    },
    STEP_TIMEOUT_MS,
  );
});
