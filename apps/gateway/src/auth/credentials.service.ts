import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Environment, newId } from '@paykit/contracts';
import { CredentialsRepository, TokenFilter } from './credentials.repository';
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
 * Positive verifications are remembered this long: a token deleted through one gateway replica
 * stops working there at once and on every other replica within this bound.
 */
export const VERIFIED_TOKEN_TTL_MS = 30_000;
const MAX_CACHED_TOKENS = 10_000;

function sha256(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** Platforms and their API credentials: issued here, stored as digests, checked in constant time. */
/** Every token id there can be: issued ones are 32 hex digits, pinned ones (SANDBOX_TOKEN_ID) 8-64 of [A-Za-z0-9_-]. */
const TOKEN_ID = /^[A-Za-z0-9_-]{1,128}$/;

@Injectable()
export class CredentialsService {
  private readonly verified = new Map<string, { digest: Buffer; caller: VerifiedCaller; until: number }>();

  constructor(private readonly repository: CredentialsRepository) {}

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
    const token = await this.repository.saveToken({
      id: tokenId,
      publicId: newId('Token'),
      platformId,
      environment,
      label,
      permissions: [...new Set(permissions)],
      secretSha256: sha256(secret).toString('hex'),
    });
    this.verified.delete(tokenId);
    return { tokenId, token, secret, platformId, environment };
  }

  async findToken(tokenId: string): Promise<ApiTokenEntity | null> {
    return this.repository.findToken(tokenId);
  }

  findPlatformToken(platformId: string, environment: Environment, publicId: string): Promise<ApiTokenEntity | null> {
    return this.repository.findPlatformToken(platformId, environment, publicId);
  }

  pageTokens(platformId: string, environment: Environment, filter: TokenFilter, limit: number, beforePublicId: string | undefined): Promise<ApiTokenEntity[]> {
    return this.repository.pageTokens(platformId, environment, filter, limit, beforePublicId);
  }

  async revokeToken(tokenId: string): Promise<void> {
    await this.repository.revokeToken(tokenId);
    this.verified.delete(tokenId);
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
    const cached = this.verified.get(tokenId);
    if (cached && cached.until > Date.now()) {
      return timingSafeEqual(cached.digest, presented) ? cached.caller : undefined;
    }
    const token = await this.repository.findUnrevokedToken(tokenId);
    if (!token) {
      // Same work as a known token, so timing does not reveal which ids exist.
      timingSafeEqual(presented, presented);
      return undefined;
    }
    const digest = Buffer.from(token.secretSha256, 'hex');
    if (!timingSafeEqual(digest, presented)) return undefined;
    const caller: VerifiedCaller = { platformId: token.platformId, environment: token.environment, permissions: token.permissions };
    if (this.verified.size >= MAX_CACHED_TOKENS) this.verified.clear();
    this.verified.set(tokenId, { digest, caller, until: Date.now() + VERIFIED_TOKEN_TTL_MS });
    return caller;
  }

  /**
   * AgentAuth bearer: bound to the agent's customer until it expires, the agent is deleted or the
   * token revoked. Never cached: the token and its agent are read in one statement per request,
   * so pausing or deleting an agent stops it at once on every replica.
   */
  async verifyBearer(token: string): Promise<VerifiedAgent | undefined> {
    const holder = await this.repository.findAgentTokenHolder(sha256(token).toString('hex'));
    if (!holder) return undefined;
    return {
      platformId: holder.platformId,
      environment: holder.environment,
      isPaused: holder.isPaused,
      agent: { agentId: holder.agentId, customerId: holder.customerId, name: holder.name, policy: holder.policy },
    };
  }
}
