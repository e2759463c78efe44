import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Browser } from 'playwright-core';
import { describeWithBrowser, launchChromium } from '../support/chromium';
import { startTestStack, TestStack } from '../support/test-stack';
import { adaFields, created } from './customers.support';

describeWithBrowser('Hosted KYC page in headless Chromium', () => {
  let t: TestStack;
  let browser: Browser;
  let platformSite: Server;
  let doneUrl: string;

  beforeAll(async () => {
    t = await startTestStack();
    browser = await launchChromium();
    // The platform's page the customer comes back to.
    platformSite = createServer((_, response) => response.writeHead(200, { 'content-type': 'text/html' }).end('<h1 id="back">Back at the platform</h1>'));
    await new Promise<void>((resolve) => platformSite.listen(0, '127.0.0.1', resolve));
    doneUrl = `http://127.0.0.1:${(platformSite.address() as AddressInfo).port}/onboarding/done`;
  }, 120_000);

  afterAll(async () => {
    try {
      await browser?.close();
      await new Promise((resolve) => platformSite?.close(resolve));
    } finally {
      await t?.stop();
    }
  }, 60_000);

  async function linkFor(customerId: string): Promise<string> {
    const response = await t.api.post(`/customers/${customerId}/kyc-link`, { redirectUri: doneUrl });
    expect(response.status).toBe(201);
    return response.body.kycUrl;
  }

  it('completes the verification and lands on redirectUri; the link then shows it was used', async () => {
    const customer = await created(t.api, adaFields);
    const kycUrl = await linkFor(customer.id);
    const page = await browser.newPage();
    await page.goto(kycUrl);
    expect(await page.textContent('h1')).toContain('Verify your identity');
    expect(await page.textContent('main')).toContain('Ada Lovelace');
    await Promise.all([page.waitForURL(doneUrl), page.click('#verify')]);
    expect(await page.textContent('#back')).toBe('Back at the platform');
    expect((await t.api.get(`/customers/${customer.id}`)).body.kycStatus).toBe('APPROVED');

    const again = await page.goto(kycUrl);
    expect(again?.status()).toBe(410);
    expect(await page.getAttribute('#link-state', 'data-state')).toBe('USED');
    await page.close();
  });

  it('collects the missing enhanced due diligence answers of a 003 customer on the page', async () => {
    const customer = await created(t.api, { ...adaFields, fullName: 'Edd Needed 003' });
    const page = await browser.newPage();
    await page.goto(await linkFor(customer.id));
    // Submitting without answers keeps the customer on the page with what is still needed.
    await page.click('#verify');
    expect(await page.textContent('#errors')).toContain('sourceOfWealthCategories');
    await page.check('input[name="sourceOfWealthCategories"][value="SALARY"]');
    await page.selectOption('select[name="purposeOfAccount"]', 'P2P_TRANSFERS');
    await page.selectOption('select[name="annualIncomeRange"]', 'RANGE_100K_250K');
    await Promise.all([page.waitForURL(doneUrl), page.click('#verify')]);
    expect((await t.api.get(`/customers/${customer.id}`)).body).toMatchObject({
      kycStatus: 'APPROVED',
      sourceOfWealthCategories: ['SALARY'],
      purposeOfAccount: 'P2P_TRANSFERS',
      annualIncomeRange: 'RANGE_100K_250K',
    });
    await page.close();
  });

  it('shows a rejection the same way: the platform learns the outcome from the customer and its webhook', async () => {
    const customer = await created(t.api, { ...adaFields, fullName: 'Turned Down 002' });
    const page = await browser.newPage();
    await page.goto(await linkFor(customer.id));
    await Promise.all([page.waitForURL(doneUrl), page.click('#verify')]);
    expect((await t.api.get(`/customers/${customer.id}`)).body.kycStatus).toBe('REJECTED');
    await page.close();
  });

  it('shows a clear page for an unknown link', async () => {
    const customer = await created(t.api, adaFields);
    const kycUrl = await linkFor(customer.id);
    const page = await browser.newPage();
    const response = await page.goto(kycUrl.replace(/[^/]+$/, 'A'.repeat(43)));
    expect(response?.status()).toBe(404);
    expect(await page.getAttribute('#link-state', 'data-state')).toBe('UNKNOWN');
    await page.close();
  });
});
