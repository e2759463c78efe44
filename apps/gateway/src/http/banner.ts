import { SandboxCredentials } from '../auth/sandbox-credentials';
import { basePath, GatewayConfig } from '../config/gateway-config';

/** What a developer needs to start calling the API, printed once the server answers. */
export function printCredentialsBanner(config: GatewayConfig, credentials: SandboxCredentials | undefined): void {
  const host = config.host === '0.0.0.0' ? '127.0.0.1' : config.host;
  const url = `http://${host}:${config.port}${basePath(config)}`;
  const lines = [``, `  Paykit API   ${url}`, `  Docs         http://${host}:${config.port}/docs`];
  if (credentials) {
    lines.push(
      `  Token id     ${credentials.token.tokenId}`,
      `  Secret       ${credentials.token.secret}`,
      `  Platform     ${credentials.token.platformId}`,
      ``,
      `  Try: curl -u ${credentials.token.tokenId}:${credentials.token.secret} -H 'content-type: application/json' \\`,
      `         -d '{"customerType":"INDIVIDUAL","fullName":"Ada Lovelace"}' ${url}/customers`,
      `  The secret is shown once. Set SANDBOX_TOKEN_ID and SANDBOX_TOKEN_SECRET to pin your own.`,
    );
  } else {
    lines.push(`  Credentials were printed at the first start (or set SANDBOX_TOKEN_ID / SANDBOX_TOKEN_SECRET).`);
  }
  process.stdout.write(lines.join('\n') + '\n\n');
}
