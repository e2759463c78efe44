import { existsSync } from 'node:fs';
import { Browser, chromium, Page } from 'playwright-core';
import { conformanceFailure } from '../support/openapi-conformance';
import { stackMode, startTestStack, TestStack } from '../support/test-stack';

/** Debian's chromium (tools/ensure-chromium.sh installs it); CHROMIUM_PATH overrides. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
if (!available && process.env.CI !== 'true') {
  process.stderr.write(`\n!! SKIPPED the API docs browser test: no chromium at ${CHROMIUM} (run tools/ensure-chromium.sh)\n\n`);
}
// In CI a missing browser is a failure, never a skip.
const describeWithBrowser = available || process.env.CI === 'true' ? describe : describe.skip;

// Above Playwright's own 30 s per wait, so a stuck step fails with Playwright's message naming it.
const BROWSER_TEST_TIMEOUT_MS = 60_000;

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Every operation of an OpenAPI document as `METHOD path`. */
function operationsOf(document: { paths: Record<string, Record<string, unknown>> }): Set<string> {
  return new Set(Object.entries(document.paths).flatMap(([path, item]) => HTTP_METHODS.filter((method) => method in item).map((method) => `${method.toUpperCase()} ${path}`)));
}

describeWithBrowser('API docs (Swagger UI at /docs) in headless Chromium', () => {
  let t: TestStack;
  let browser: Browser;

  beforeAll(async () => {
    t = await startTestStack();
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
  }, 120_000);

  afterAll(async () => {
    try {
      await browser?.close();
    } finally {
      await t?.stop();
    }
  }, 60_000);

  /**
   * Authorizes the page through the Authorize dialog: the platform's Basic credentials and, when
   * given, an agent's access token (AgentAuth, the scheme of the `/agents/me*` operations).
   */
  async function authorize(page: Page, agentToken?: string): Promise<void> {
    await page.locator('.auth-wrapper button.authorize').click();
    const basicAuth = page.locator('.auth-container', { has: page.locator('h4', { hasText: 'BasicAuth' }) });
    await basicAuth.getByLabel('auth-basic-username').fill(t.credentials.tokenId);
    await basicAuth.getByLabel('auth-basic-password').fill(t.credentials.secret);
    await basicAuth.getByRole('button', { name: 'Apply credentials' }).click();
    await basicAuth.getByText('Authorized', { exact: true }).waitFor();
    if (agentToken) {
      const agentAuth = page.locator('.auth-container', { has: page.locator('h4', { hasText: 'AgentAuth' }) });
      await agentAuth.getByLabel('auth-bearer-value').fill(agentToken);
      await agentAuth.getByRole('button', { name: 'Apply credentials' }).click();
      await agentAuth.getByText('Authorized', { exact: true }).waitFor();
    }
    await page.getByRole('button', { name: 'Close' }).first().click();
  }

  /** An agent's access token (a customer, an agent for it, its device code redeemed). */
  async function agentToken(): Promise<string> {
    const customer = await t.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace', email: 'ada@example.com' });
    const policy = {
      permissions: ['VIEW_TRANSACTIONS', 'CREATE_TRANSFERS', 'CREATE_QUOTES', 'EXECUTE_QUOTES', 'MANAGE_EXTERNAL_ACCOUNTS'],
      defaultExecutionMode: 'AUTO',
      spendingLimits: { currency: 'USD', perTransactionLimit: 1_000 },
    };
    const agent = await t.api.post('/agents', { name: 'Docs agent', customerId: customer.body.id, policy });
    return (await t.api.post(`/agents/device-codes/${agent.body.deviceCode.code}/redeem`, undefined, { auth: null })).body.accessToken;
  }

  /** Opens `/docs` and records every uncaught error of the page. */
  async function openDocs(): Promise<{ page: Page; pageErrors: string[] }> {
    const page = await browser.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${t.stack.url}/docs`);
    return { page, pageErrors };
  }

  it(
    'renders every operation of /openapi.json',
    async () => {
      const document = await (await fetch(`${t.stack.url}/openapi.json`)).json();
      const operations = operationsOf(document);
      const { page, pageErrors } = await openDocs();
      for (const operation of operations) {
        const [method, path] = operation.split(' ');
        await page
          .locator(`.opblock-${method.toLowerCase()}`, { has: page.locator(`.opblock-summary-path[data-path="${path}"]`) })
          .first()
          .waitFor();
      }
      // An operation with two tags is shown under both: count each operation once.
      const rendered = await page
        .locator('.opblock')
        .evaluateAll((blocks) =>
          blocks.map((block) => `${block.querySelector('.opblock-summary-method')?.textContent} ${block.querySelector('.opblock-summary-path')?.getAttribute('data-path')}`),
        );
      expect(new Set(rendered)).toEqual(operations);
      expect(pageErrors).toEqual([]);
      await page.close();
    },
    BROWSER_TEST_TIMEOUT_MS,
  );

  it(
    'authorizes with the platform\'s Basic credentials and runs "Try it out" on the customers list',
    async () => {
      const { page, pageErrors } = await openDocs();
      await authorize(page);

      const listCustomers = page.locator('.opblock-get', { has: page.locator('.opblock-summary-path[data-path="/customers"]') });
      await listCustomers.locator('.opblock-summary-control').click();
      await listCustomers.getByRole('button', { name: 'Try it out' }).click();
      await listCustomers.getByRole('button', { name: 'Execute' }).click();

      const liveResponse = listCustomers.locator('.live-responses-table tbody tr.response');
      expect(await liveResponse.locator('.response-col_status').innerText()).toBe('200');
      // The UI fills the filters with their documented examples, so the page may well be empty: its shape is the point.
      const body = JSON.parse(await liveResponse.locator('.response-col_description .highlight-code pre').innerText());
      expect(body).toEqual({ data: expect.any(Array), hasMore: expect.any(Boolean), totalCount: expect.any(Number) });
      expect(pageErrors).toEqual([]);
      await page.close();
    },
    BROWSER_TEST_TIMEOUT_MS,
  );
  // The document is the same in both modes and every response of the distributed suite is checked against it
  // already; clicking through every operation (minutes of browser time) runs once, in embedded mode.
  const everyOperation = stackMode() === 'embedded' ? it : it.skip;
  everyOperation(
    'runs "Try it out" on every operation with its documented examples: authorized, answered as documented, never a 5xx',
    async () => {
      const document = await (await fetch(`${t.stack.url}/openapi.json`)).json();
      const operations = [...operationsOf(document)];
      const token = await agentToken();
      const unauthorized: string[] = [];
      const answers = new Map<string, number>();
      const mismatches: string[] = [];
      const notSent: string[] = [];
      const pageErrors: string[] = [];

      /** One page's share of the operations, each found through the filter box by its first tag (a re-render of one tag, not of all). */
      const clickThrough = async (share: string[]): Promise<void> => {
        const opened = await openDocs();
        const page = opened.page;
        await authorize(page, token);
        page.on('request', (request) => {
          if (request.url().startsWith(`${t.stack.url}/`) && !request.url().includes('/docs') && !request.url().endsWith('/openapi.json')) {
            // Agent operations take the agent's bearer; a device code is redeemed without credentials (the code is one).
            const { pathname } = new URL(request.url());
            const scheme = /\/agents\/device-codes\/[^/]+\/redeem$/.test(pathname) ? undefined : /\/agents\/me(\/|$)/.test(pathname) ? 'Bearer ' : 'Basic ';
            const authorization = request.headers().authorization;
            if (scheme ? !authorization?.startsWith(scheme) : authorization !== undefined) unauthorized.push(`${request.method()} ${request.url()}`);
          }
        });
        page.on('response', async (response) => {
          const request = response.request();
          if (request.resourceType() !== 'fetch' && request.resourceType() !== 'xhr') return;
          const failure = conformanceFailure(
            response.url(),
            request.method(),
            response.status(),
            response.headers()['content-type'] ?? null,
            await response.text().catch(() => ''),
          );
          if (failure) mismatches.push(failure);
        });
        for (const operation of share) {
          const [method, path] = operation.split(' ');
          const tag: string = document.paths[path][method.toLowerCase()].tags?.[0] ?? 'default';
          await page.locator('input.operation-filter-input').fill(tag);
          const block = page.locator(`.opblock-${method.toLowerCase()}`, { has: page.locator(`.opblock-summary-path[data-path="${path}"]`) }).first();
          await block.locator('.opblock-summary-control').click();
          await block.locator('.try-out__btn').click();
          // A multipart upload needs its file: a small one of the kind the operation takes.
          const fileInputs = block.locator('input[type="file"]');
          for (let index = 0; index < (await fileInputs.count()); index += 1) {
            const csv = path.includes('csv');
            await fileInputs.nth(index).setInputFiles({
              name: csv ? 'customers.csv' : 'passport.pdf',
              mimeType: csv ? 'text/csv' : 'application/pdf',
              buffer: Buffer.from(csv ? 'customerType,fullName,email\nINDIVIDUAL,Ada Lovelace,ada@example.com\n' : '%PDF-1.4\n%%EOF\n'),
            });
          }
          await block.locator('button.execute').click();
          const status = block.locator('.live-responses-table tbody tr.response .response-col_status');
          // Either the request went out and was answered, or the UI refused to send it (a required
          // value without an example: an input marked invalid). A passing run refuses nothing, so the
          // wait is long enough for a slow operation on a loaded machine.
          const refusal = block.locator('.invalid, .validation-errors');
          await status
            .or(refusal)
            .first()
            .waitFor({ timeout: 30_000 })
            .catch(() => undefined);
          const sent = await status.isVisible();
          if (sent) answers.set(operation, Number(await status.innerText()));
          else notSent.push(operation);
          await block.locator('.opblock-summary-control').click();
        }
        pageErrors.push(...opened.pageErrors);
        await page.close();
      };
      // Two pages at once (each its own renderer process) share the operations; their requests interleave on one stack, which is itself a check.
      await Promise.all([0, 1].map((half) => clickThrough(operations.filter((_, index) => index % 2 === half))));

      expect(answers.size + notSent.length).toBe(operations.length);
      const refused = [...answers].filter(([, status]) => status === 401 || status >= 500).map(([operation, status]) => `${operation}: ${status}`);
      expect({ notSent, unauthorized, refused, mismatches, pageErrors }).toEqual({ notSent: [], unauthorized: [], refused: [], mismatches: [], pageErrors: [] });
    },
    // About 1 s an operation on a quiet machine (two pages, filtered by tag), 3 s with the other core busy: 20 minutes of headroom.
    20 * BROWSER_TEST_TIMEOUT_MS,
  );
});
