import { Injectable } from '@nestjs/common';
import { amountFromWire, CallerContext, newId, SandboxUmaReceiveRequest, Transaction } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { Clock, TransactionRunner } from '@paykit/persistence';
import { SandboxRules } from '@paykit/runtime';
import { sandboxUmaReceiver } from '../../receiver-lookup/receiver-lookup.sandbox';
import { parseUmaAddress } from '../../receiver-lookup/uma-address';
import { TransactionsRepository } from '../../transfers/transactions.repository';
import { TransactionReader } from '../../transfers/use-cases/transaction-reader';
import { sandboxRefundedSender } from '../incoming-payments.sandbox';
import { IncomingDecisions, REQUESTED_RECEIVER_FIELDS } from './incoming-decisions';
import { IncomingReceivers } from './incoming-receivers';
import { IncomingTransitions } from './incoming-transitions';

/**
 * POST /sandbox/uma/receive: a sandbox counterparty pays a customer of the caller's platform. The
 * payment waits PENDING for the platform's decision (`INCOMING_PAYMENT.PENDING` carries the
 * sender's information and the receiver data it asks for) until its deadline.
 */
@Injectable()
export class ReceiveSandboxPayment {
  constructor(
    private readonly receivers: IncomingReceivers,
    private readonly decisions: IncomingDecisions,
    private readonly transitions: IncomingTransitions,
    private readonly transactionsRepo: TransactionsRepository,
    private readonly reader: TransactionReader,
    private readonly transactions: TransactionRunner,
    private readonly sandbox: SandboxRules,
    private readonly clock: Clock,
  ) {}

  async run(ctx: CallerContext, request: SandboxUmaReceiveRequest): Promise<Transaction> {
    if (!this.sandbox.applyTo(ctx)) throw new ServiceError('FORBIDDEN', 'Sandbox payments take a sandbox token');
    const sender = parseUmaAddress(request.senderUmaAddress, 'senderUmaAddress');
    const counterparty = sandboxUmaReceiver(sender) ?? sandboxRefundedSender(sender);
    if (!counterparty) throw new ServiceError('UMA_NOT_FOUND', `${sender} is not a sandbox UMA counterparty`, { field: 'senderUmaAddress' });
    const { customerId, account, platformCustomerId } = await this.receivers.resolve(ctx, request);
    const now = this.clock.now();
    return this.transactions.run(async (manager) => {
      const entity = await this.transactionsRepo.insert(manager, {
        id: newId('Transaction'),
        platformId: ctx.platformId,
        type: 'INCOMING',
        status: 'PENDING',
        customerId,
        platformCustomerId,
        internalAccountId: account.id,
        externalAccountId: null,
        currencyCode: request.receivingCurrencyCode,
        amount: amountFromWire(request.receivingCurrencyAmount),
        holdId: null,
        description: null,
        failureReason: null,
        paymentRail: null,
        railSelectionMode: null,
        remittanceInformation: null,
        purposeOfPayment: null,
        counterpartyUmaAddress: sender,
        counterpartyInformation: { FULL_NAME: counterparty.name, UMA_ADDRESS: sender },
      });
      await this.decisions.open(manager, ctx.platformId, entity.id, now);
      const transaction = await this.reader.toResource(entity);
      await this.transitions.announce(manager, ctx.platformId, { ...transaction, requestedReceiverCustomerInfoFields: REQUESTED_RECEIVER_FIELDS });
      return transaction;
    });
  }
}
