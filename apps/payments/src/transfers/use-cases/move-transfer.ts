import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { CallerContext, newId, Transaction } from '@paykit/contracts';
import { Clock, IdempotencyStore, Outbox } from '@paykit/persistence';
import { isClientRetry, lockFingerprint } from '../../client-retries';
import { toTransaction, transactionStatusEvent } from '../transaction.mapper';
import { NewTransaction, TransactionsRepository } from '../transactions.repository';
import { TransactionReader } from './transaction-reader';
import { TransferFunds } from './transfer-funds';
import { CheckedTransfer, MoveHooks } from './transfer-request';
import { TransferSteps } from './transfer-steps';

/**
 * A checked transfer moves: the transfer, its hold or entry, its event and its idempotency record
 * (or, without a key, its request fingerprint), in one transaction.
 */
@Injectable()
export class MoveTransfer {
  constructor(
    private readonly transfers: TransactionsRepository,
    private readonly reader: TransactionReader,
    private readonly funds: TransferFunds,
    private readonly steps: TransferSteps,
    private readonly idempotency: IdempotencyStore,
    private readonly outbox: Outbox,
    private readonly clock: Clock,
  ) {}

  async run(ctx: CallerContext, checked: CheckedTransfer, hooks: MoveHooks = {}): Promise<Transaction> {
    const { request, hash, fingerprint, account, external, currency, outcome, amount, platformCustomerId, rail } = checked;
    const { idempotencyKey } = request;
    return this.idempotency.runOnce(ctx.platformId, idempotencyKey, hash, async (manager) => {
      if (fingerprint) {
        // Requests with one fingerprint take their turns: a client's retry that came while the try it
        // repeats was still running waits for it here, then answers it instead of moving the money again.
        await lockFingerprint(manager, ctx.platformId, fingerprint);
        if (isClientRetry(request.retryOf)) {
          const earlier = await this.reader.retried(ctx.platformId, fingerprint, manager);
          if (earlier) return this.reader.toResource(earlier);
        }
      }
      // Checked again under the account's lock: it may have been frozen or closed since the check above.
      await this.funds.lockAccount(manager, ctx.platformId, account.id);
      await hooks.beforeWrite?.(manager);
      if (account.customerId && !hooks.awaitApproval) await this.funds.assertWithinVelocity(manager, ctx.platformId, account.customerId, currency.code, amount);
      const id = newId('Transaction');
      let holdId: string | null = null;
      if (request.type === 'OUTGOING' && outcome.kind === 'ACCEPTED' && !hooks.awaitApproval) {
        holdId = await this.funds.hold(manager, ctx.platformId, account, amount, id);
        await this.funds.announceBalance(manager, ctx.platformId, account.id);
      }
      const failed = outcome.kind === 'FAILS_IMMEDIATELY';
      const row: NewTransaction = {
        id,
        platformId: ctx.platformId,
        type: request.type,
        status: failed ? 'FAILED' : 'PENDING',
        customerId: account.customerId,
        platformCustomerId: account.customerId ? platformCustomerId : null,
        internalAccountId: account.id,
        externalAccountId: external.id,
        currencyCode: currency.code,
        amount,
        holdId,
        description: request.description ?? null,
        failureReason: failed ? outcome.failureReason : null,
        paymentRail: rail?.paymentRail ?? null,
        railSelectionMode: rail?.mode ?? null,
        remittanceInformation: request.remittanceInformation ?? null,
        purposeOfPayment: request.purposeOfPayment ?? null,
        // A wallet destination: the transfer goes out on the address's network (the sandbox names its transfer by a generated hash).
        cryptoNetwork: external.routing.network ?? null,
        onChainTransactionHash: external.routing.network ? sandboxTransactionHash(id) : null,
        requestFingerprint: fingerprint ?? null,
      };
      // The transfer, its event and its first step in one statement (the row is known before it is written).
      const now = this.clock.now();
      const transaction = toTransaction(this.transfers.entityOf(row, now), currency, ctx.platformId);
      const first = outcome.kind === 'ACCEPTED' && !hooks.awaitApproval ? this.steps.statements(ctx.platformId, id, outcome.steps) : [];
      await this.outbox.addWithChange(manager, this.transfers.insertStatement(row, now), transactionStatusEvent(ctx.platformId, transaction), first);
      await hooks.afterWrite?.(manager, transaction);
      return transaction;
    });
  }
}

/** The hash of a wallet transfer's on-chain leg: derived from the transaction id (no chain is reached in this build). */
function sandboxTransactionHash(transactionId: string): string {
  return createHash('sha256').update(`onchain:${transactionId}`).digest('hex');
}
