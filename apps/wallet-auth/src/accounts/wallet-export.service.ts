import { Inject, Injectable } from '@nestjs/common';
import { CallerContext, EmailBinding, ExportWalletRequest, PAYMENTS_SUBJECTS, SignedRetryOutcome, UpdateEmailBindingRequest, WalletExport } from '@paykit/contracts';
import { SERVICE_CLIENT, ServiceClient, signedAction } from '@paykit/transport';
import { ServiceError } from '@paykit/errors';
import { CredentialsRepository } from '../credentials/credentials.repository';
import { AuthCredentialEntity } from '../credentials/entities/auth-credential.entity';
import { isValidP256PublicKeyHex } from '../crypto/p256';
import { sealSessionSigningKey } from '../crypto/session-bundle';
import { EnclaveKeysService } from '../keys/enclave-keys.service';
import { SignedRetryService } from '../signed-retry/signed-retry.service';
import { WalletAccountsService } from './wallet-accounts.service';

/** Wallet export (a signed action) and the customer-email bindings other services ask about. */
@Injectable()
export class WalletExportService {
  constructor(
    private readonly accounts: WalletAccountsService,
    private readonly credentials: CredentialsRepository,
    private readonly keys: EnclaveKeysService,
    private readonly signedRetry: SignedRetryService,
    @Inject(SERVICE_CLIENT) private readonly services: ServiceClient,
  ) {}

  /** The wallet key leaves the service only sealed to the client's key, after a signed retry. */
  async export(ctx: CallerContext, request: ExportWalletRequest): Promise<SignedRetryOutcome<WalletExport>> {
    const account = await this.accounts.walletKey(ctx, request.accountId);
    if (!isValidP256PublicKeyHex(request.clientPublicKey)) throw ServiceError.invalidField('clientPublicKey', 'clientPublicKey is not a point on the P-256 curve');
    return signedAction(this.signedRetry.inProcess(), ctx, { accountId: account.id, operation: 'WALLET_EXPORT', input: request.signedRetry }, () =>
      Promise.resolve({
        id: account.id,
        accountId: account.id,
        encryptedWalletCredentials: sealSessionSigningKey(this.keys.open(account.walletKeySealed), request.clientPublicKey),
      }),
    );
  }

  async emailBinding(ctx: CallerContext, customerId: string): Promise<EmailBinding> {
    let tied = await this.credentials.listTiedToCustomer(ctx.platformId, customerId);
    if (tied.length === 0) {
      // The customer's wallet may exist in payments before its event reached us: learn it now,
      // so an email change cannot slip through unsigned in that window.
      const wallets = await this.services.request(PAYMENTS_SUBJECTS.listInternalAccounts, { owner: 'CUSTOMER', customerId, type: 'EMBEDDED_WALLET' }, ctx);
      for (const wallet of wallets.data) await this.accounts.require(ctx, wallet.id);
      if (wallets.data.length > 0) tied = await this.credentials.listTiedToCustomer(ctx.platformId, customerId);
    }
    return toEmailBinding(customerId, tied);
  }

  /** The signed email change, applied by the gateway once the customer is updated: the tied credentials follow at once. */
  async updateEmailBinding(ctx: CallerContext, request: UpdateEmailBindingRequest): Promise<EmailBinding> {
    await this.accounts.syncCustomerEmail(ctx.platformId, request.customerId, request.email);
    return toEmailBinding(request.customerId, await this.credentials.listTiedToCustomer(ctx.platformId, request.customerId));
  }
}

function toEmailBinding(customerId: string, tied: AuthCredentialEntity[]): EmailBinding {
  return { customerId, bindings: tied.map((credential) => ({ accountId: credential.accountId, email: credential.email ?? credential.nickname })) };
}
