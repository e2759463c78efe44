/**
 * `npm run platform -- <command>`: manage platforms and API tokens in the gateway's database.
 *
 *   list                                          platforms and their tokens (never secrets)
 *   create --name <name> [--environment sandbox|production]
 *                                                 a platform and its first token (secret shown once)
 *   token --platform <Platform:id> [--environment sandbox|production] [--label <text>]
 *                                                 another token for a platform
 *   revoke --token <token id>                     revoke a token
 *
 * Distributed mode: set GATEWAY_DATABASE_URL. Embedded mode: uses DATA_DIR (default .data) and
 * must run while `npm start` is stopped (PGlite is single-process).
 */
import 'reflect-metadata';
import { Environment, ENVIRONMENTS } from '@paykit/contracts';
import { closePgliteHosts, openServiceDataSource, serviceDataSourceOptions } from '@paykit/persistence';
import { ConfigError, loadRuntimeConfig } from '@paykit/runtime';
import { CredentialsRepository } from '../apps/gateway/src/auth/credentials.repository';
import { AuthInvalidations } from '../apps/gateway/src/auth/auth-invalidations';
import { CredentialsService } from '../apps/gateway/src/auth/credentials.service';
import { AgentAccessTokenEntity } from '../apps/gateway/src/auth/entities/agent-access-token.entity';
import { ApiTokenEntity } from '../apps/gateway/src/auth/entities/api-token.entity';
import { PlatformEntity } from '../apps/gateway/src/auth/entities/platform.entity';
import { CreatePlatformsAndTokens1732300200000 } from '../apps/gateway/src/migrations/1732300200000-CreatePlatformsAndTokens';
import { AddTokenPermissions1764070000000 } from '../apps/gateway/src/migrations/1764070000000-AddTokenPermissions';
import { CreateSandboxRequestLog1764330000000 } from '../apps/gateway/src/migrations/1764330000000-CreateSandboxRequestLog';
import { CreateRateLimitWindows1764300000000 } from '../apps/gateway/src/migrations/1764300000000-CreateRateLimitWindows';
import { CreateAgents1764320000000 } from '../apps/gateway/src/migrations/1764320000000-CreateAgents';
import { AgentEntity } from '../apps/gateway/src/agents/entities/agent.entity';
import { AgentDeviceCodeEntity } from '../apps/gateway/src/agents/entities/agent-device-code.entity';
import { assertEmbeddedServerStopped } from './embedded-data';

function option(args: string[], name: string): string | undefined {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? args[index + 1] : undefined;
}

function environmentOption(args: string[]): Environment {
  const value = option(args, 'environment') ?? 'sandbox';
  if (!(ENVIRONMENTS as readonly string[]).includes(value)) throw new Error(`--environment must be one of ${ENVIRONMENTS.join(', ')}`);
  return value as Environment;
}

async function main(): Promise<void> {
  const [command, ...args] = process.argv.slice(2);
  const distributed = Boolean(process.env.GATEWAY_DATABASE_URL);
  const config = loadRuntimeConfig(process.env, distributed ? 'distributed' : 'embedded', ['gateway']);
  if (!distributed) assertEmbeddedServerStopped(config.embeddedDataDir);
  const dataSource = await openServiceDataSource(
    serviceDataSourceOptions(config, {
      service: 'gateway',
      entities: [PlatformEntity, ApiTokenEntity, AgentAccessTokenEntity, AgentEntity, AgentDeviceCodeEntity],
      migrations: [
        CreatePlatformsAndTokens1732300200000,
        AddTokenPermissions1764070000000,
        CreateRateLimitWindows1764300000000,
        CreateAgents1764320000000,
        CreateSandboxRequestLog1764330000000,
      ],
    }),
  );
  const repository = new CredentialsRepository(dataSource);
  // Changes made here are notified to the running gateways (distributed); this process caches nothing.
  const credentials = new CredentialsService(repository, new AuthInvalidations(dataSource, config), { agentAuthCacheTtlSeconds: 0 });
  try {
    switch (command) {
      case 'list': {
        for (const platform of await credentials.listPlatforms()) {
          process.stdout.write(`${platform.id}  ${platform.name}\n`);
          const tokens = await repository.listTokens(platform.id);
          for (const token of tokens) {
            process.stdout.write(
              `    ${token.id}  ${token.environment}  ${token.permissions.join(',')}  ${token.label}${token.revokedAt ? `  revoked ${token.revokedAt.toISOString()}` : ''}\n`,
            );
          }
        }
        break;
      }
      case 'create': {
        const name = option(args, 'name');
        if (!name) throw new Error('create needs --name');
        const platform = await credentials.createPlatform(name);
        const token = await credentials.issueToken(platform.id, environmentOption(args), 'created by platform CLI');
        process.stdout.write(`platform ${platform.id}\ntoken id ${token.tokenId}\nsecret   ${token.secret}   (shown once)\n`);
        break;
      }
      case 'token': {
        const platformId = option(args, 'platform');
        if (!platformId) throw new Error('token needs --platform');
        const platform = (await credentials.listPlatforms()).find((each) => each.id === platformId);
        if (!platform) throw new Error(`no platform ${platformId}`);
        const token = await credentials.issueToken(platform.id, environmentOption(args), option(args, 'label') ?? 'created by platform CLI');
        process.stdout.write(`token id ${token.tokenId}\nsecret   ${token.secret}   (shown once)\n`);
        break;
      }
      case 'revoke': {
        const tokenId = option(args, 'token');
        if (!tokenId || !(await credentials.findToken(tokenId))) throw new Error('revoke needs --token <an existing token id>');
        await credentials.revokeToken(tokenId);
        process.stdout.write(`revoked ${tokenId} (gateways stop accepting it within 30 s)\n`);
        break;
      }
      default:
        process.stdout.write(
          'usage: npm run platform -- list | create --name <name> [--environment sandbox|production] | token --platform <id> [--environment ...] | revoke --token <id>\n',
        );
        process.exitCode = command ? 1 : 0;
    }
  } finally {
    await dataSource.destroy();
    await closePgliteHosts();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof ConfigError || error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
