import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { CallerContext, CUSTOMERS_EVENTS, newId, NewEvent, PAYMENTS_EVENTS, PAYMENTS_SUBJECTS, tenantContext, WALLET_AUTH_EVENTS } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { DeadLetterStore, InsertGuard, Outbox, TransactionRunner, Clock } from '@paykit/persistence';
import { EVENT_BUS, EventBus, handleEventBatches, handleEvents, ReadEvent, SERVICE_CLIENT, ServiceClient } from '@paykit/transport';
import { CredentialsRepository } from '../credentials/credentials.repository';
import { AuthCredentialEntity } from '../credentials/entities/auth-credential.entity';
import { BoundedLruCache, generateP256PrivateKeyHex } from '../crypto/p256';
import { EnclaveKeysService } from '../keys/enclave-keys.service';
import { WalletAccountEntity } from './entities/wallet-account.entity';
import { WalletAccountsRepository } from './wallet-accounts.repository';

/** Durable consumer names on the event stream (wire values: frozen). */
export const WALLET_AUTH_ACCOUNTS_CONSUMER = 'wallet-auth-accounts';
export const WALLET_AUTH_CUSTOMERS_CONSUMER = 'wallet-auth-customers';

/** What a wallet export needs of its account. */
export type WalletKey = Pick<WalletAccountEntity, 'id' | 'walletKeySealed'>;

const WALLET_KEY_CACHE_CAPACITY = 10_000;

/** A customer's embedded wallet to set up: the account payments created for it, and the email its first credential is bound to. */
export interface WalletToProvision {
  platformId: string;
  accountId: string;
  customerId: string;
  walletEmail: string | null;
}

/** A wallet account announced twice (a repeated event, a lookup racing the event) is inserted once. */
const NEW_WALLETS_ONLY: InsertGuard = { skipExisting: true };

function walletKeyCacheKey(platformId: string, accountId: string): string {
  return `${platformId}\n${accountId}`;
}

/**
 * Embedded wallet accounts, as payments provisions them: each gets a wallet key (sealed at rest)
 * and starts with an EMAIL_OTP credential bound to the customer email. Learned from payments'
 * per-customer provisioning events, a batch at a time; an account asked for before its event
 * arrived is fetched from payments once.
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
    await this.bus.consumeBatches(
      WALLET_AUTH_ACCOUNTS_CONSUMER,
      PAYMENTS_EVENTS.customerAccountsProvisioned,
      this.clock.inPlatformTimeBatches(
        this.deadLetters.guardBatch(
          WALLET_AUTH_ACCOUNTS_CONSUMER,
          handleEventBatches({
            [PAYMENTS_EVENTS.customerAccountsProvisioned]: async (events) => {
              const wallets = await Promise.all(events.filter((event) => event.data.walletAccountId).map((event) => this.walletOf(event)));
              if (wallets.length > 0) await this.provisionMany(wallets);
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
    if (record.type !== 'EMBEDDED_WALLET' || !record.customerId) {
      throw ServiceError.invalidField('accountId', 'accountId must be an EMBEDDED_WALLET internal account');
    }
    await this.provisionMany([{ platformId: ctx.platformId, accountId, customerId: record.customerId, walletEmail: record.walletEmail ?? null }]);
    // Read back: a racing provisioning of the same account may have inserted it first.
    const stored = await this.accounts.findById(ctx.platformId, accountId);
    if (!stored) throw new Error(`Wallet account ${accountId} vanished after provisioning`);
    return this.remember(stored);
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

  /** The wallet a provisioning event names; an event of a payments release that did not carry the email is completed from payments. */
  private async walletOf(event: ReadEvent<typeof PAYMENTS_EVENTS.customerAccountsProvisioned>): Promise<WalletToProvision> {
    const { customerId, walletAccountId, walletEmail } = event.data;
    const accountId = walletAccountId!;
    const email =
      walletEmail ?? (await this.services.request(PAYMENTS_SUBJECTS.getInternalAccount, { accountId }, tenantContext(event.platformId, `event:${event.eventId}`))).walletEmail;
    return { platformId: event.platformId, accountId, customerId, walletEmail: email ?? null };
  }

  /**
   * Sets up wallets: each gets a fresh wallet key, sealed, and (with an email) its EMAIL_OTP
   * credential; one `wallet.provisioned` event each says the customer's wallet is usable. A batch
   * is two statements in one transaction (the accounts with their events, then the credentials).
   * Idempotent: an account already set up (or twice in the batch) is left as it is and announced
   * once.
   */
  async provisionMany(wallets: WalletToProvision[]): Promise<void> {
    const now = this.clock.now();
    const unique = [...new Map(wallets.map((wallet) => [`${wallet.platformId}\n${wallet.accountId}`, wallet])).values()];
    const rows = unique.map((wallet) => {
      const account: WalletAccountEntity = {
        id: wallet.accountId,
        platformId: wallet.platformId,
        customerId: wallet.customerId,
        walletEmail: wallet.walletEmail?.toLowerCase() ?? null,
        walletKeySealed: this.keys.seal(generateP256PrivateKeyHex()),
        createdAt: now,
        updatedAt: now,
      };
      const credential = account.walletEmail ? initialEmailOtp(account, account.walletEmail) : undefined;
      return { account, credential, event: walletProvisioned(account, wallet.customerId, credential) };
    });
    await this.transactions.run(async (manager) => {
      const inserted = await this.outbox.addManyWithInserts(
        manager,
        this.accounts.newRow,
        rows.map((row) => ({ entity: row.account, event: row.event, guarded: true })),
        NEW_WALLETS_ONLY,
      );
      const credentials = rows.filter((row, index) => inserted[index] && row.credential).map((row) => row.credential!);
      await this.credentials.insertMany(manager, credentials);
    });
    this.logger.debug(`${unique.length} embedded wallet accounts provisioned`);
  }
}

/** The wallet's first credential: EMAIL_OTP, bound to the customer's email. */
function initialEmailOtp(account: WalletAccountEntity, email: string): AuthCredentialEntity {
  return {
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
}

/** The customer's wallet is usable from this commit on: the customers service marks it ready. */
function walletProvisioned(account: WalletAccountEntity, customerId: string, credential: AuthCredentialEntity | undefined): NewEvent<typeof WALLET_AUTH_EVENTS.walletProvisioned> {
  return {
    subject: WALLET_AUTH_EVENTS.walletProvisioned,
    platformId: account.platformId,
    resourceId: customerId,
    data: { customerId, accountId: account.id, ...(credential ? { credentialId: credential.id } : {}) },
  };
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
