import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  EmailBinding,
  EmailBindingRequest,
  EnclaveKey,
  ExportWalletRequest,
  MessageEnvelope,
  SignedRetryOutcome,
  UpdateEmailBindingRequest,
  WalletExport,
  WALLET_AUTH_SUBJECTS,
} from '@paykit/contracts';
import { CallerContextPipe, EnvelopePipe } from '@paykit/transport';
import { EnclaveKeysService } from '../keys/enclave-keys.service';
import { WalletExportService } from './wallet-export.service';

@Controller()
export class AccountsHandlers {
  constructor(
    private readonly wallets: WalletExportService,
    private readonly keys: EnclaveKeysService,
  ) {}

  @MessagePattern(WALLET_AUTH_SUBJECTS.exportWallet)
  export(@Payload(new EnvelopePipe(ExportWalletRequest)) { ctx, payload }: MessageEnvelope<ExportWalletRequest>): Promise<SignedRetryOutcome<WalletExport>> {
    return this.wallets.export(ctx, payload);
  }

  @MessagePattern(WALLET_AUTH_SUBJECTS.getEmailBinding)
  emailBinding(@Payload(new EnvelopePipe(EmailBindingRequest)) { ctx, payload }: MessageEnvelope<EmailBindingRequest>): Promise<EmailBinding> {
    return this.wallets.emailBinding(ctx, payload.customerId);
  }

  @MessagePattern(WALLET_AUTH_SUBJECTS.updateEmailBinding)
  updateEmailBinding(@Payload(new EnvelopePipe(UpdateEmailBindingRequest)) { ctx, payload }: MessageEnvelope<UpdateEmailBindingRequest>): Promise<EmailBinding> {
    return this.wallets.updateEmailBinding(ctx, payload);
  }

  @MessagePattern(WALLET_AUTH_SUBJECTS.getEnclaveKey)
  enclaveKey(@Payload(new CallerContextPipe()) _envelope: MessageEnvelope<unknown>): EnclaveKey {
    return { enclaveQuorumPublic: this.keys.publicKeyUncompressedHex };
  }
}
