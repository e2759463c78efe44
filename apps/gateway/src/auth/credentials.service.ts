import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { Environment, newId } from '@paykit/contracts';
import { GatewayConfig } from '../config/gateway-config';
import { GATEWAY_CONFIG } from '../http/tokens';
import { AuthInvalidation, AuthInvalidations, InvalidationSubscriber } from './auth-invalidations';
import { VerifiedCache } from './verified-cache';
import { CredentialsRepository, TokenPage, TokenPageQuery } from './credentials.repository';
import { ApiTokenEntity } from './entities/api-token.entity';
import { ALL_PERMISSIONS, Permission } from './permissions';
import { PlatformEntity } from './entities/platform.entity';
import type { AuthenticatedAgent } from './caller.decorator';

export interface VerifiedCaller {
  platformId: string;
  environment: Environment;
  /** What the API token may do. */
  permissions: readonly Permission[];
}

/** An AgentAuth caller: the agent as it is now (a paused one is refused by the guard). */
export interface VerifiedAgent {
  platformId: string;
  environment: Environment;
  agent: AuthenticatedAgent;
  isPaused: boolean;
}

export interface IssuedToken {
  /** The BasicAuth client id. */
  tokenId: string;
  token: ApiTokenEntity;
  secret: string;
  platformId: string;
  environment: Environment;
}

/**
 * Positive verifications of API tokens are remembered at most this long. A token deleted through
 * one gateway replica stops there at once and on the others as soon as they hear of it
 * (AuthInvalidations); this is the bound should they miss it.
 */
export const VERIFIED_TOKEN_TTL_MS = 30_000;
const MAX_CACHED_TOKENS = 10_000;

/** A cached API token verification: the secret's digest is still compared on every request. */
interface CachedToken {
  digest: Buffer;
  caller: VerifiedCaller;
}

function sha256(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** Platforms and their API credentials: issued here, stored as digests, checked in constant time. */
/** Every token id there can be: issued ones are 32 hex digits, pinned ones (SANDBOX_TOKEN_ID) 8-64 of [A-Za-z0-9_-]. */
const TOKEN_ID = /^[A-Za-z0-9_-]{1,128}$/;

@Injectable()
export class CredentialsService implements InvalidationSubscriber {
  /** By token id. */
  private readonly verified: VerifiedCache<CachedToken>;
  /** By the SHA-256 of the bearer token, never the token itself. */
  private readonly agentTokens: VerifiedCache<VerifiedAgent>;

  constructor(
    private readonly repository: CredentialsRepository,
    private readonly invalidations: AuthInvalidations,
    @Inject(GATEWAY_CONFIG) config: Pick<GatewayConfig, 'agentAuthCacheTtlSeconds'>,
  ) {
    this.verified = new VerifiedCache({ ttlMs: VERIFIED_TOKEN_TTL_MS, maxEntries: MAX_CACHED_TOKENS });
    this.agentTokens = new VerifiedCache({ ttlMs: config.agentAuthCacheTtlSeconds * 1000, maxEntries: MAX_CACHED_TOKENS });
    invalidations.subscribe(this);
  }

  invalidate(change: AuthInvalidation): void {
    if ('agentId' in change) this.agentTokens.invalidate((_digest, verified) => verified.agent.agentId === change.agentId);
    else if ('agentsOfPlatform' in change) this.agentTokens.invalidate((_digest, verified) => verified.platformId === change.agentsOfPlatform);
    else this.verified.invalidate((tokenId) => tokenId === change.apiTokenId);
  }

  suspend(): void {
    this.verified.suspend();
    this.agentTokens.suspend();
  }

  resume(): void {
    this.verified.resume();
    this.agentTokens.resume();
  }

  async createPlatform(name: string): Promise<PlatformEntity> {
    return this.repository.insertPlatform({ id: newId('Platform'), name });
  }

  listPlatforms(): Promise<PlatformEntity[]> {
    return this.repository.listPlatforms();
  }

  /** Issues a token; the secret is returned here once and never stored in clear. */
  async issueToken(
    platformId: string,
    environment: Environment,
    label: string,
    fixed?: { tokenId: string; secret: string },
    permissions: readonly Permission[] = ALL_PERMISSIONS,
  ): Promise<IssuedToken> {
    const tokenId = fixed?.tokenId ?? randomBytes(16).toString('hex');
    const secret = fixed?.secret ?? randomBytes(32).toString('base64url');
    // A pinned id gets a new secret: replicas that verified the old one forget it.
    const token = await this.invalidations.transaction([{ apiTokenId: tokenId }], (manager) =>
      this.repository.saveToken(manager, {
        id: tokenId,
        publicId: newId('Token'),
        platformId,
        environment,
        label,
        permissions: [...new Set(permissions)],
        secretSha256: sha256(secret).toString('hex'),
      }),
    );
    return { tokenId, token, secret, platformId, environment };
  }

  async findToken(tokenId: string): Promise<ApiTokenEntity | null> {
    return this.repository.findToken(tokenId);
  }

  findPlatformToken(platformId: string, environment: Environment, publicId: string): Promise<ApiTokenEntity | null> {
    return this.repository.findPlatformToken(platformId, environment, publicId);
  }

  pageTokens(platformId: string, environment: Environment, query: TokenPageQuery): Promise<TokenPage> {
    return this.repository.pageTokens(platformId, environment, query);
  }

  async revokeToken(tokenId: string): Promise<void> {
    await this.invalidations.transaction([{ apiTokenId: tokenId }], (manager) => this.repository.revokeToken(manager, tokenId));
  }

  /** BasicAuth `<token id>:<secret>`; undefined when unknown, revoked or wrong. */
  async verifyBasic(tokenId: string, secret: string): Promise<VerifiedCaller | undefined> {
    const presented = sha256(secret);
    if (!TOKEN_ID.test(tokenId)) {
      // Not an id any token has (issued ids are hex, pinned ones [A-Za-z0-9_-]): no query, and
      // nothing the database cannot store (a NUL) ever reaches it.
      timingSafeEqual(presented, presented);
      return undefined;
    }
    const known = await this.verified.get(tokenId, async () => {
      const token = await this.repository.findUnrevokedToken(tokenId);
      if (!token) return undefined;
      return {
        value: { digest: Buffer.from(token.secretSha256, 'hex'), caller: { platformId: token.platformId, environment: token.environment, permissions: token.permissions } },
      };
    });
    // Same work for an unknown id as for a known one, so timing does not reveal which ids exist.
    return timingSafeEqual(known?.digest ?? presented, presented) && known ? known.caller : undefined;
  }

  /**
   * AgentAuth bearer: bound to the agent's customer until it expires, the agent is deleted or the
   * token revoked. The token and its agent are read in one statement and kept by the token's
   * digest for at most AGENT_AUTH_CACHE_TTL_SECONDS; pausing, resuming, editing or deleting the
   * agent drops it on every replica as the change commits (AuthInvalidations).
   */
  async verifyBearer(token: string): Promise<VerifiedAgent | undefined> {
    const digest = sha256(token).toString('hex');
    return this.agentTokens.get(digest, async () => {
      const holder = await this.repository.findAgentTokenHolder(digest);
      if (!holder) return undefined;
      const value: VerifiedAgent = {
        platformId: holder.platformId,
        environment: holder.environment,
        isPaused: holder.isPaused,
        agent: { agentId: holder.agentId, customerId: holder.customerId, name: holder.name, policy: holder.policy },
      };
      return { value, expiresAt: holder.expiresAt.getTime() };
    });
  }
}
