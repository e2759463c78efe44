import { credentialsBanner } from './banner';
import { GatewayConfig, loadGatewayConfig } from '../config/gateway-config';
import { SandboxCredentials } from '../auth/sandbox-credentials';

const config: GatewayConfig = { ...loadGatewayConfig({}), host: '0.0.0.0', port: 8080 };
const SECRET = 'the-secret-value-0123456789-abcdefghij';

function credentials(generated: boolean): SandboxCredentials {
  return { generated, token: { tokenId: 'tok_banner', secret: SECRET, platformId: 'Platform:1', environment: 'sandbox', token: {} as never } };
}

describe(credentialsBanner.name, () => {
  it('shows the secret and a ready curl only when this start generated it', () => {
    const banner = credentialsBanner(config, credentials(true));
    expect(banner).toContain(`Secret       ${SECRET}`);
    expect(banner).toContain(`curl -u tok_banner:${SECRET}`);
  });

  it('never prints a pinned SANDBOX_TOKEN_SECRET', () => {
    const banner = credentialsBanner(config, credentials(false));
    expect(banner).not.toContain(SECRET);
    expect(banner).toContain('tok_banner');
    expect(banner).toContain('$SANDBOX_TOKEN_SECRET');
  });

  it('prints no secret on a later start', () => {
    expect(credentialsBanner(config, undefined)).not.toMatch(/Secret|curl -u/);
  });
});
