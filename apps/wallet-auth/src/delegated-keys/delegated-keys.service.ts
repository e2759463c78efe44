import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CallerContext, CARDS_SUBJECTS, CreateDelegatedKeyRequest, DelegatedKey, Empty, ListDelegatedKeysQuery, newId, SignedRetryOutcome } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { isUniqueViolation, TransactionRunner, Clock } from '@paykit/persistence';
import { SERVICE_CLIENT, ServiceClient, signedRetryStep } from '@paykit/transport';
import { WalletAccountsService } from '../accounts/wallet-accounts.service';
import { generateP256KeyPair } from '../crypto/p256';
import { EnclaveKeysService } from '../keys/enclave-keys.service';
import { SignedRetryService } from '../signed-retry/signed-retry.service';
import { DelegatedKeysRepository } from './delegated-keys.repository';
import { DelegatedKeyEntity } from './entities/delegated-key.entity';

/**
 * The id of a card funding source: the (card, internal account) pair names it, so the id is
 * derived from the pair (a name-based UUID) and is the same wherever it is computed.
 */
export function cardFundingSourceId(platformId: string, cardId: string, accountId: string): string {
  const hex = createHash('sha256').update(`${platformId}\n${cardId}\n${accountId}`, 'utf8').digest('hex');
  // RFC 9562 version 8 (custom) with the RFC variant bits.
  const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  return `CardFundingSource:${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export function toDelegatedKey(entity: DelegatedKeyEntity): DelegatedKey {
  return {
    id: entity.id,
    cardId: entity.cardId,
    fundingSourceId: entity.fundingSourceId,
    accountId: entity.accountId,
    publicKey: entity.publicKey,
    nickname: entity.nickname,
    status: entity.status,
    createdAt: entity.createdAt.toISOString(),
    updatedAt: entity.updatedAt.toISOString(),
  };
}

function notFound(id: string): ServiceError {
  return new ServiceError('REFERENCE_NOT_FOUND', `Delegated key ${id} not found`);
}

function activeKeyExists(): ServiceError {
  return new ServiceError('CONFLICT', 'This card funding source already has an ACTIVE delegated key; revoke it first');
}

/**
 * Delegated signing keys for card funding sources backed by an embedded wallet. Creation is three
 * legs, each with the same body: the first call answers a challenge; its signed retry generates
 * the key (PENDING) and answers a second challenge; that one's signed retry activates the key.
 * Both signed legs need a session of the funding account.
 */
@Injectable()
export class DelegatedKeysService {
  constructor(
    private readonly keys: DelegatedKeysRepository,
    private readonly accounts: WalletAccountsService,
    private readonly signedRetry: SignedRetryService,
    private readonly enclave: EnclaveKeysService,
    private readonly transactions: TransactionRunner,
    @Inject(SERVICE_CLIENT) private readonly services: ServiceClient,
    private readonly clock: Clock,
  ) {}

  async create(ctx: CallerContext, request: CreateDelegatedKeyRequest): Promise<SignedRetryOutcome<DelegatedKey>> {
    const card = await this.services.request(CARDS_SUBJECTS.getCard, { cardId: request.cardId }, ctx);
    if (!card.fundingSources.includes(request.internalAccountId)) {
      throw new ServiceError('REFERENCE_NOT_FOUND', `Internal account ${request.internalAccountId} is not a funding source of card ${request.cardId}`);
    }
    const account = await this.accounts.require(ctx, request.internalAccountId);
    const fundingSourceId = cardFundingSourceId(ctx.platformId, card.id, account.id);
    const binding = { accountId: account.id, requestDigest: request.signedRetry.requestDigest };

    if (signedRetryStep(request.signedRetry) === 'first-call') {
      if (await this.keys.findActiveForFundingSource(ctx.platformId, fundingSourceId)) throw activeKeyExists();
      return { challenge: await this.signedRetry.issue(ctx, { ...binding, operation: 'DELEGATED_KEY_CREATE' }) };
    }
    const { signature, requestId } = request.signedRetry;
    const leg = requestId ? await this.signedRetry.operationOf(ctx, requestId) : undefined;
    if (leg === 'DELEGATED_KEY_ACTIVATE') {
      const retry = { ...binding, operation: leg, signature, requestId };
      const activated = await this.signedRetry.inProcess().consumeAndApply(ctx, retry, async ({ manager, challenge }) => {
        const id = String(challenge.context.delegatedKeyId);
        const key = await this.keys.findById(ctx.platformId, id, manager);
        if (!key) throw notFound(id);
        let updatedAt: Date | undefined;
        try {
          updatedAt = await this.keys.activate(manager, ctx.platformId, id);
        } catch (error) {
          if (isUniqueViolation(error, 'ux_delegated_key_active')) throw activeKeyExists();
          throw error;
        }
        if (!updatedAt) throw new ServiceError('CONFLICT', `Delegated key ${id} is ${key.status}, not PENDING`);
        return { ...key, status: 'ACTIVE' as const, updatedAt: new Date(updatedAt) };
      });
      return { result: toDelegatedKey(activated) };
    }
    // The second leg: the key is generated and held (PENDING); activating it is signed separately.
    const retry = { ...binding, operation: 'DELEGATED_KEY_CREATE' as const, signature, requestId };
    const next = await this.signedRetry.inProcess().consumeAndApply(ctx, retry, async ({ manager }) => {
      const pair = generateP256KeyPair();
      const now = this.clock.now();
      const key: DelegatedKeyEntity = {
        id: newId('DelegatedKey'),
        platformId: ctx.platformId,
        accountId: account.id,
        cardId: card.id,
        fundingSourceId,
        publicKey: pair.publicKeyCompressedHex,
        privateKeySealed: this.enclave.seal(pair.privateKeyHex),
        nickname: request.nickname,
        status: 'PENDING',
        createdAt: now,
        updatedAt: now,
        revokedAt: null,
      };
      await this.keys.insert(manager, key);
      return this.signedRetry.issue(ctx, { ...binding, operation: 'DELEGATED_KEY_ACTIVATE' }, { context: { delegatedKeyId: key.id }, manager });
    });
    return { challenge: next };
  }

  async list(ctx: CallerContext, query: ListDelegatedKeysQuery): Promise<{ data: DelegatedKey[] }> {
    if (query.accountId === undefined && query.fundingSourceId === undefined) {
      throw ServiceError.invalidInput([
        { field: 'accountId', message: 'accountId or fundingSourceId is required' },
        { field: 'fundingSourceId', message: 'accountId or fundingSourceId is required' },
      ]);
    }
    const keys = await this.keys.list(ctx.platformId, query);
    return { data: keys.map(toDelegatedKey) };
  }

  async get(ctx: CallerContext, id: string): Promise<DelegatedKey> {
    const key = await this.keys.findById(ctx.platformId, id);
    if (!key) throw notFound(id);
    return toDelegatedKey(key);
  }

  /** The key can no longer sign; only an ACTIVE key is revoked (anything else is a 400). */
  async revoke(ctx: CallerContext, id: string): Promise<Empty> {
    const key = await this.keys.findById(ctx.platformId, id);
    if (!key) throw notFound(id);
    const revoked = await this.transactions.run((manager) => this.keys.revoke(manager, ctx.platformId, id));
    if (!revoked) throw new ServiceError('INVALID_INPUT', `Delegated key ${id} is not ACTIVE`, { reason: `the key is ${key.status}` });
    return { ok: true };
  }
}
