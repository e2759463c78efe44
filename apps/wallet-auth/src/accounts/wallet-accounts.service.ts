import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { CallerContext, CUSTOMERS_EVENTS, InternalAccountRecord, newId, PAYMENTS_EVENTS, PAYMENTS_SUBJECTS, WALLET_AUTH_EVENTS } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { DeadLetterStore, Outbox, TransactionRunner, Clock } from '@paykit/persistence';
import { EVENT_BUS, EventBus, handleEvents, SERVICE_CLIENT, ServiceClient } from '@paykit/transport';
import { EntityManager } from 'typeorm';
import { CredentialsRepository } from '../credentials/credentials.repository';
import { toAuthMethod } from '../credentials/credential.mapper';
import { AuthCredentialEntity } from '../credentials/entities/auth-credential.entity';
import { BoundedLruCache, generateP256KeyPair } from '../crypto/p256';
import { EnclaveKeysService } from '../keys/enclave-keys.service';
import { WalletAccountEntity } from './entities/wallet-account.entity';
import { WalletAccountsRepository } from './wallet-accounts.repository';

/** Durable consumer names on the event stream (wire values: frozen). */
export const WALLET_AUTH_ACCOUNTS_CONSUMER = 'wallet-auth-accounts';
export const WALLET_AUTH_CUSTOMERS_CONSUMER = 'wallet-auth-customers';

/** What a wallet export needs of its account. */
export type WalletKey = Pick<WalletAccountEntity, 'id' | 'walletKeySealed'>;

const WALLET_KEY_CACHE_CAPACITY = 10_000;

function walletKeyCacheKey(platformId: string, accountId: string): string {
  return `${platformId}\n${accountId}`;
}

/**
 * Embedded wallet accounts, as payments provisions them: each gets a wallet key (sealed at rest)
 * and starts with an EMAIL_OTP credential bound to the customer email. Learned from payments'
 * events; an account asked for before its event arrived is fetched from payments once.
 */
@Injectable()
export class WalletAccountsService implements OnApplicationBootstrap {
  private readonly logger = new Logger(WalletAccountsService.name);
  private readonly walletKeys = new BoundedLruCache<string, WalletKey>(WALLET_KEY_CACHE_CAPACITY);

  constructor(
    private readonly accounts: WalletAccountsRepository,
    private readonly credentials: CredentialsRepository,
    private readonly keys: EnclaveKeysService,
    private readonly transactions: TransactionRunner,
    private readonly outbox: Outbox,
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(SERVICE_CLIENT) private readonly services: ServiceClient,
    private readonly deadLetters: DeadLetterStore,
    private readonly clock: Clock,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // Only the two subjects acted on: every other payments and customers event would still cost a delivery and an acknowledgement.
    await this.bus.consume(
      WALLET_AUTH_ACCOUNTS_CONSUMER,
      PAYMENTS_EVENTS.internalAccountCreated,
      this.clock.inPlatformTime(
        this.deadLetters.guard(
          WALLET_AUTH_ACCOUNTS_CONSUMER,
          handleEvents({
            [PAYMENTS_EVENTS.internalAccountCreated]: async (event) => {
              if (event.data.type === 'EMBEDDED_WALLET') await this.provision(event.platformId, event.data);
            },
          }),
        ),
      ),
    );
    await this.bus.consume(
      WALLET_AUTH_CUSTOMERS_CONSUMER,
      CUSTOMERS_EVENTS.customerUpdated,
      this.clock.inPlatformTime(
        this.deadLetters.guard(
          WALLET_AUTH_CUSTOMERS_CONSUMER,
          handleEvents({
            /**
             * A customer changed: the EMAIL_OTP credentials tied to its email follow. The signed email change
             * already did this directly (wallet-auth.email-binding.update); this is the backstop for when
             * that call failed after the customer was updated, and for updates that needed no signature.
             */
            [CUSTOMERS_EVENTS.customerUpdated]: async (event) => {
              if (event.data.email) await this.syncCustomerEmail(event.platformId, event.data.id, event.data.email);
            },
          }),
        ),
      ),
    );
  }

  /**
   * Sets the customer's email on its wallet accounts and on the EMAIL_OTP credentials tied to it;
   * the ids of the credentials that changed. Idempotent: a repeat (the event after the direct call)
   * changes nothing and announces nothing. Events are applied in order, so a late event of an earlier
   * change is put right by the next one.
   */
  async syncCustomerEmail(platformId: string, customerId: string, email: string): Promise<string[]> {
    const normalized = email.toLowerCase();
    return this.transactions.run(async (manager) => {
      await this.accounts.updateEmailOfCustomer(manager, platformId, customerId, normalized);
      const changed = await this.credentials.syncTiedEmail(manager, platformId, customerId, normalized);
      for (const credentialId of changed) {
        await this.outbox.add(manager, {
          subject: WALLET_AUTH_EVENTS.credentialEmailChanged,
          platformId,
          resourceId: credentialId,
          data: { credentialId, customerId },
        });
      }
      return changed;
    });
  }

  /** The embedded wallet account, or 404 as for an unknown id (another platform's included). */
  async require(ctx: CallerContext, accountId: string): Promise<WalletAccountEntity> {
    const known = await this.accounts.findById(ctx.platformId, accountId);
    if (known) return this.remember(known);
    const record = await this.services.request(PAYMENTS_SUBJECTS.getInternalAccount, { accountId }, ctx);
    if (record.type !== 'EMBEDDED_WALLET') {
      throw ServiceError.invalidField('accountId', 'accountId must be an EMBEDDED_WALLET internal account');
    }
    return this.provision(ctx.platformId, record);
  }

  /**
   * The account's id and sealed wallet key, as require() finds them. Both never change and accounts
   * are never deleted, so what was read once is kept (the key stays sealed in memory as at rest).
   */
  async walletKey(ctx: CallerContext, accountId: string): Promise<WalletKey> {
    return this.walletKeys.get(walletKeyCacheKey(ctx.platformId, accountId)) ?? (await this.require(ctx, accountId));
  }

  private remember(account: WalletAccountEntity): WalletAccountEntity {
    this.walletKeys.set(walletKeyCacheKey(account.platformId, account.id), { id: account.id, walletKeySealed: account.walletKeySealed });
    return account;
  }

  /** Idempotent: a repeated event (or a racing lookup) finds the account already there. */
  async provision(platformId: string, record: Pick<InternalAccountRecord, 'id' | 'customerId' | 'walletEmail'>): Promise<WalletAccountEntity> {
    const now = this.clock.now();
    const account: WalletAccountEntity = {
      id: record.id,
      platformId,
      customerId: record.customerId ?? null,
      walletEmail: record.walletEmail?.toLowerCase() ?? null,
      walletKeySealed: this.keys.seal(generateP256KeyPair().privateKeyHex),
      createdAt: now,
      updatedAt: now,
    };
    const inserted = await this.transactions.run(async (manager) => {
      if (!(await this.accounts.insertIfAbsent(manager, account))) return false;
      if (account.walletEmail) await this.addInitialEmailOtp(manager, account, account.walletEmail);
      // The customer's wallet is usable from this commit on: the customers service marks it ready.
      if (account.customerId) {
        await this.outbox.add(manager, {
          subject: WALLET_AUTH_EVENTS.walletProvisioned,
          platformId,
          resourceId: account.customerId,
          data: { customerId: account.customerId, accountId: account.id },
        });
      }
      return true;
    });
    // What was just inserted is what a read would answer: only a repeat reads the stored account.
    const stored = inserted ? account : await this.accounts.findById(platformId, record.id);
    if (!stored) throw new Error(`Wallet account ${record.id} vanished after provisioning`);
    this.logger.debug(`Embedded wallet account ${record.id} provisioned`);
    return this.remember(stored);
  }

  private async addInitialEmailOtp(manager: EntityManager, account: WalletAccountEntity, email: string): Promise<void> {
    const credential: AuthCredentialEntity = {
      ...emptyCredential(),
      id: newId('AuthMethod'),
      platformId: account.platformId,
      accountId: account.id,
      type: 'EMAIL_OTP',
      nickname: email,
      email,
      tiedCustomerId: account.customerId,
      createdAt: account.createdAt,
      updatedAt: account.createdAt,
    };
    await this.credentials.insert(manager, credential);
    await this.outbox.add(manager, {
      subject: WALLET_AUTH_EVENTS.credentialCreated,
      platformId: account.platformId,
      resourceId: credential.id,
      data: toAuthMethod(credential),
    });
  }
}

/** Every optional column empty: type-specific fields are filled by the caller. */
export function emptyCredential(): Omit<AuthCredentialEntity, 'id' | 'platformId' | 'accountId' | 'type' | 'nickname' | 'createdAt' | 'updatedAt'> {
  return {
    email: null,
    phoneNumber: null,
    tiedCustomerId: null,
    passkeyCredentialId: null,
    passkeyPublicKey: null,
    passkeyCounter: null,
    passkeyTransports: null,
    oidcIssuer: null,
    oidcAudience: null,
    oidcSubject: null,
    status: 'ACTIVE',
    revokedAt: null,
  };
}
