import { existsSync } from 'node:fs';
import { Browser, chromium } from 'playwright-core';

/**
 * The one way browser specs find and start Chromium. `npm test` installs Debian's chromium when it
 * is missing (tools/ensure-chromium.sh) and says once, loudly, when it could not; a spec here only
 * skips, quietly, outside CI. Under CI=true a missing browser is a failure, never a skip: the
 * browser specs run and fail at launch.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const chromiumAvailable = existsSync(CHROMIUM_PATH);

const browserRuns = chromiumAvailable || process.env.CI === 'true';

/** `describe` when Chromium can run (or CI demands it), `describe.skip` otherwise. */
export const describeWithBrowser: jest.Describe = browserRuns ? describe : describe.skip;

/** `it` when Chromium can run (or CI demands it), `it.skip` otherwise. */
export const itWithBrowser: jest.It = browserRuns ? it : it.skip;

/** Headless Chromium as this machine runs it (as root, without its network chatter). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}
