import { Inject, Injectable } from '@nestjs/common';
import { CallerContext, SignedRetryOutcome, Transaction, TransferOutMessage } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { SERVICE_CLIENT, ServiceClient, signedAction, walletAuthOverTransport } from '@paykit/transport';
import { CheckTransfer } from './check-transfer';
import { MoveTransfer } from './move-transfer';
import { outgoing } from './transfer-request';

/**
 * POST /transfer-out. Sending from an EMBEDDED_WALLET is a signed action of that wallet (SPEC
 * "Embedded wallet sessions" 1): every check runs first on both calls, so its 4xx come before
 * the challenge, and the money moves only once wallet-auth has consumed a challenge signed by a
 * session of the wallet. A repeat of an answered Idempotency-Key gets that answer, unsigned.
 */
@Injectable()
export class TransferOut {
  constructor(
    private readonly check: CheckTransfer,
    private readonly move: MoveTransfer,
    @Inject(SERVICE_CLIENT) private readonly services: ServiceClient,
  ) {}

  async run(ctx: CallerContext, request: TransferOutMessage): Promise<SignedRetryOutcome<Transaction>> {
    const checked = await this.check.run(ctx, outgoing(request));
    if ('earlier' in checked) return { result: checked.earlier };
    const source = checked.account;
    if (source.type !== 'EMBEDDED_WALLET') return { result: await this.move.run(ctx, checked) };
    if (!request.signedRetry) throw new ServiceError('WALLET_SIGNATURE_MISSING', `A transfer from embedded wallet ${source.id} must be signed by a session of the wallet`);
    return signedAction(walletAuthOverTransport(this.services), ctx, { accountId: source.id, operation: 'TRANSFER_OUT', input: request.signedRetry }, () =>
      this.move.run(ctx, checked),
    );
  }
}
