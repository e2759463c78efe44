import { Browser, Page } from 'playwright-core';
import { describeWithBrowser, launchChromium } from '../support/chromium';
import { conformanceFailure } from '../support/openapi-conformance';
import { stackMode, startTestStack, TestStack } from '../support/test-stack';

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
    browser = await launchChromium();
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
  // already: the sweep runs once, in the embedded (behaviour) suite.
  const everyOperation = stackMode() === 'embedded' ? it : it.skip;
  everyOperation(
    'runs "Try it out" on every operation with its documented examples, through the page\'s own Swagger UI: authorized, answered as documented, never a 5xx',
    async () => {
      const document = await (await fetch(`${t.stack.url}/openapi.json`)).json();
      // A reset or a restore replaces the platform's whole state (its agent too): they come last, so the
      // operations before them run on the state the sweep built.
      const replacesState = (operation: string) => /^POST \/sandbox\/(reset|snapshots\/\{name\}\/restore)$/.test(operation);
      const operations = [...operationsOf(document)].sort((a, b) => Number(replacesState(a)) - Number(replacesState(b)));
      const token = await agentToken();
      const unauthorized: string[] = [];
      const mismatches: string[] = [];
      const { page, pageErrors } = await openDocs();
      // The Authorize dialog, clicked as a user does: the sweep sends what the page authorized.
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
        const failure = conformanceFailure(response.url(), request.method(), response.status(), response.headers()['content-type'] ?? null, await response.text().catch(() => ''));
        if (failure) mismatches.push(failure);
      });

      const outcome = await page.evaluate(tryEveryOperationInPage, operations);

      expect(Object.keys(outcome.answers).length + outcome.notSent.length).toBe(operations.length);
      const refused = Object.entries(outcome.answers)
        .filter(([, status]) => status === 401 || status >= 500)
        .map(([operation, status]) => `${operation}: ${status}`);
      expect({ notSent: outcome.notSent, unauthorized, refused, mismatches, pageErrors }).toEqual({ notSent: [], unauthorized: [], refused: [], mismatches: [], pageErrors: [] });
      await page.close();
    },
    BROWSER_TEST_TIMEOUT_MS,
  );
});

/**
 * Runs in the page: "Try it out" and "Execute" for each operation, without rendering it. Values are
 * filled as Swagger UI fills them on "Try it out" (a parameter's example, its schema's example or
 * default; a body's example, else the sample the UI generates from its schema; a small file for a
 * multipart upload), then the UI's own request machinery (`ui.fn.execute`, swagger-client) sends
 * them with the securities the Authorize dialog stored and the server the UI selected. An operation
 * whose required value has no example is not sent (the UI would refuse it too).
 */
async function tryEveryOperationInPage(operations: string[]): Promise<{ answers: Record<string, number>; notSent: string[] }> {
  type Node = Record<string, any>;
  const ui = (window as unknown as { ui: Node }).ui;
  const spec: Node = ui.specSelectors.specJson().toJS();
  const lookup = (ref: string): Node =>
    ref
      .slice(2)
      .split('/')
      .reduce((node: Node, key: string) => node[key.replace(/~1/g, '/').replace(/~0/g, '~')], spec);
  const deref = (node: any, seen: string[] = []): any => {
    if (Array.isArray(node)) return node.map((item) => deref(item, seen));
    if (typeof node !== 'object' || node === null) return node;
    if (typeof node.$ref === 'string') return seen.includes(node.$ref) ? {} : deref(lookup(node.$ref), [...seen, node.$ref]);
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, deref(value, seen)]));
  };
  const firstExample = (examples: Node | undefined): unknown => (examples ? Object.values(examples)[0]?.value : undefined);
  const sample = (schema: Node, mediaType?: string): unknown => ui.fn.getSampleSchema(schema, mediaType, { includeWriteOnly: true });
  const asText = (value: unknown): unknown => (typeof value === 'object' && value !== null && !(value instanceof File) ? JSON.stringify(value) : value);
  const securities = { authorized: ui.authSelectors.authorized().toJS() };
  const server = ui.oas3Selectors.selectedServer() || spec.servers?.[0]?.url;
  const contextUrl = new URL('/openapi.json', window.location.href).toString();
  const answers: Record<string, number> = {};
  const notSent: string[] = [];
  for (const operation of operations) {
    const [method, pathName] = operation.split(' ');
    const item = spec.paths[pathName];
    const definition = deref(item[method.toLowerCase()]);
    const parameters: Record<string, unknown> = {};
    let missing = false;
    for (const parameter of [...deref(item.parameters ?? []), ...(definition.parameters ?? [])] as Node[]) {
      const schema: Node = parameter.schema ?? {};
      let value = firstExample(parameter.examples) ?? parameter.example ?? schema.example ?? schema.default ?? parameter.default;
      if (value === undefined && schema.type === 'object') value = sample(schema);
      if (value !== undefined) parameters[`${parameter.in}.${parameter.name}`] = Array.isArray(value) ? value : asText(value);
      else if (parameter.required) missing = true;
    }
    let requestBody: unknown;
    let requestContentType: string | undefined;
    if (definition.requestBody) {
      requestContentType = Object.keys(definition.requestBody.content)[0];
      const media: Node = definition.requestBody.content[requestContentType];
      if (requestContentType.startsWith('multipart/')) {
        const form: Record<string, unknown> = {};
        for (const [name, property] of Object.entries<Node>(media.schema?.properties ?? {})) {
          if (property.format === 'binary') {
            const csv = pathName.includes('csv');
            form[name] = csv
              ? new File(['customerType,fullName,email\nINDIVIDUAL,Ada Lovelace,ada@example.com\n'], 'customers.csv', { type: 'text/csv' })
              : new File(['%PDF-1.4\n%%EOF\n'], 'passport.pdf', { type: 'application/pdf' });
          } else {
            const value = property.example ?? property.default ?? (property.type === 'object' ? sample(property) : undefined);
            if (value !== undefined) form[name] = asText(value);
          }
        }
        requestBody = form;
      } else {
        const example = media.example ?? firstExample(media.examples);
        requestBody = example !== undefined ? JSON.stringify(example) : asText(sample(media.schema ?? {}, requestContentType));
      }
    }
    if (missing) {
      notSent.push(operation);
      continue;
    }
    const request = {
      spec,
      pathName,
      method: method.toLowerCase(),
      parameters,
      requestBody,
      requestContentType,
      securities,
      server,
      contextUrl,
      responseContentType: 'application/json',
    };
    try {
      answers[operation] = (await ui.fn.execute(request)).status;
    } catch (error) {
      // swagger-client rejects a non-2xx answer with the response attached; no response means it never went out.
      const status = (error as { response?: { status?: number } }).response?.status;
      if (status) answers[operation] = status;
      else notSent.push(`${operation}: ${String(error)}`);
    }
  }
  return { answers, notSent };
}
