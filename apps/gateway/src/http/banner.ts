import { SandboxCredentials } from '../auth/sandbox-credentials';
import { basePath, GatewayConfig } from '../config/gateway-config';

/**
 * What a developer needs to start calling the API, printed once the server answers. The secret
 * appears only when this start generated it (the first start); a pinned SANDBOX_TOKEN_SECRET and
 * a secret from an earlier start are never printed.
 */
export function credentialsBanner(config: GatewayConfig, credentials: SandboxCredentials | undefined): string {
  const host = config.host === '0.0.0.0' ? '127.0.0.1' : config.host;
  const url = `http://${host}:${config.port}${basePath(config)}`;
  const lines = [``, `  Paykit API   ${url}`, `  Docs         http://${host}:${config.port}/docs`];
  const tryIt = (user: string) => [
    ``,
    `  Try: curl -u ${user} -H 'content-type: application/json' \\`,
    `         -d '{"customerType":"INDIVIDUAL","fullName":"Ada Lovelace"}' ${url}/customers`,
  ];
  if (credentials?.generated) {
    lines.push(
      `  Token id     ${credentials.token.tokenId}`,
      `  Secret       ${credentials.token.secret}`,
      `  Platform     ${credentials.token.platformId}`,
      ...tryIt(`${credentials.token.tokenId}:${credentials.token.secret}`),
      `  The secret is shown once. Set SANDBOX_TOKEN_ID and SANDBOX_TOKEN_SECRET to pin your own.`,
    );
  } else if (credentials) {
    lines.push(
      `  Token id     ${credentials.token.tokenId} (pinned by SANDBOX_TOKEN_ID; the secret is SANDBOX_TOKEN_SECRET)`,
      `  Platform     ${credentials.token.platformId}`,
      ...tryIt(`"${credentials.token.tokenId}:$SANDBOX_TOKEN_SECRET"`),
    );
  } else {
    lines.push(`  Credentials were printed at the first start (or set SANDBOX_TOKEN_ID / SANDBOX_TOKEN_SECRET).`);
  }
  return lines.join('\n') + '\n\n';
}

export function printCredentialsBanner(config: GatewayConfig, credentials: SandboxCredentials | undefined): void {
  process.stdout.write(credentialsBanner(config, credentials));
}
