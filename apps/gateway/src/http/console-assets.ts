import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Where the browser reaches the sandbox console. */
export const CONSOLE_PATH = '/console/';

/**
 * The console's built files (`npm run build` writes them to `dist/console`): found from this file
 * upwards, so the same lookup works from `dist/apps/gateway/...` (a build, the image) and from
 * `apps/gateway/...` (tests running the sources). Undefined when the console was never built.
 */
export function findConsoleAssets(from: string = __dirname): string | undefined {
  for (let directory = from; ; directory = dirname(directory)) {
    const candidate = join(directory, 'dist', 'console');
    if (existsSync(join(candidate, 'index.html'))) return candidate;
    if (dirname(directory) === directory) return undefined;
  }
}
