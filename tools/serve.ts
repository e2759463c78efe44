/**
 * The container's entry point: `node dist/tools/serve.js <app>` runs one app of the one image
 * (Dockerfile), e.g. `docker run paykit cards` or `args: ["cards"]` in Kubernetes. The app may also
 * be named by the SERVICE variable. Anything else is refused, naming the apps there are.
 */
import { join } from 'node:path';
import { SERVICE_NAMES, ServiceName } from '@paykit/runtime';

const app = process.argv[2] ?? process.env.SERVICE;
if (!SERVICE_NAMES.includes(app as ServiceName)) {
  process.stderr.write(`serve: name the app to run, one of ${SERVICE_NAMES.join(', ')} (got ${app === undefined ? 'nothing' : `"${app}"`})\n`);
  process.exit(64);
}
void import(join(__dirname, '..', 'apps', app, 'src', 'main.js'));
