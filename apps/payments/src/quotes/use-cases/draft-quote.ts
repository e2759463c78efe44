import { Inject, Injectable } from '@nestjs/common';
import { CallerContext, CreateQuoteMessage, FeeConfig, newId } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { Clock } from '@paykit/persistence';
import { SERVICE_CLIENT, ServiceClient, walletAuthOverTransport } from '@paykit/transport';
import { PAYMENTS_CONFIG, PaymentsConfig } from '../../config/payments-config';
import { CustomersClient } from '../../counterparties/customers.client';
import { configuredPlatformFee } from '../../exchange-rates/pricing';
import { QuoteEntity } from '../entities/quote.entity';
import { NewQuote } from '../quotes.repository';
import { QuoteParties, assertLookupOf, payerDataToCheck, unknownSourceCustomer } from './quote-parties';
import { QuotePricing } from './quote-pricing';
import { quoteExecutionDigest } from './quote-wallet-signature';

/** A new quote, checked and priced, before it is written. */
export interface QuoteDraft {
  quote: NewQuote;
  /** Whether its customer is subject to Strong Customer Authentication (and pays from no embedded wallet). */
  scaRegulated: boolean;
}

/**
 * POST /quotes up to the row: resolves the source, the destination and the lookup, asks the
 * customers service whether the customer may pay, prices the corridor and, for an embedded
 * wallet, issues the challenge the quote carries. Every refusal comes before that challenge.
 */
@Injectable()
export class DraftQuote {
  constructor(
    private readonly parties: QuoteParties,
    private readonly pricing: QuotePricing,
    private readonly customers: CustomersClient,
    @Inject(PAYMENTS_CONFIG) private readonly config: PaymentsConfig,
    @Inject(SERVICE_CLIENT) private readonly services: ServiceClient,
    private readonly clock: Clock,
  ) {}

  async run(ctx: CallerContext, request: CreateQuoteMessage): Promise<QuoteDraft> {
    // Each read started early is awaited later; a refusal of one not awaited yet must not go unhandled meanwhile.
    const lookupRead = request.lookupId !== undefined ? this.parties.findLookup(ctx.platformId, request.lookupId) : Promise.resolve(undefined);
    lookupRead.catch(() => undefined);
    const source = await this.parties.source(ctx, request);
    const lookup = await lookupRead;
    const payerData = payerDataToCheck(lookup, request.senderCustomerInfo);
    // The customers service's answer (the customer's readiness, the payer data the receiver asked
    // for, and the platform's fee configs, in one ask) is asked for while the destination resolves;
    // its refusal still counts only after the destination's and the price's.
    const readiness = source.customerId
      ? this.customers.assertReady(ctx, source.customerId, source.currency, payerData).catch((error: unknown) => {
          // A customer the customers service does not know (payments still holds its accounts), named in the body.
          if (error instanceof ServiceError && error.code === 'USER_NOT_FOUND' && request.source.customerId !== undefined) throw unknownSourceCustomer(source.customerId!);
          throw error;
        })
      : undefined;
    const feeConfigs: Promise<FeeConfig[]> = readiness ? readiness.then((customer) => customer.feeConfigs ?? []) : this.customers.feeConfigs(ctx);
    feeConfigs.catch(() => undefined);
    const destination = await this.parties.destination(ctx, request, source.customerId);
    assertLookupOf(request.lookupId, lookup, destination);
    if (!source.customerId && payerData.length > 0) {
      // No customer to read them from: the platform sends them in senderCustomerInfo.
      throw new ServiceError('MISSING_MANDATORY_USER_INFO', `The receiver asks for payer data not given in senderCustomerInfo: ${payerData.join(', ')}`, {
        missingFields: payerData,
      });
    }
    if (destination.kind === 'INTERNAL_ACCOUNT' && source.account?.id === destination.accountId) {
      throw new ServiceError('SELF_PAYMENT', 'A quote cannot pay the account it is paid from');
    }
    if (request.immediatelyExecute && source.account?.type === 'EMBEDDED_WALLET') {
      throw ServiceError.invalidInput([
        { field: 'immediatelyExecute', message: 'immediatelyExecute is not available for an EMBEDDED_WALLET source: create the quote, then execute it with the wallet signature' },
      ]);
    }
    const priced = await this.pricing.corridorFor(source.currency, destination.currency, request.destination.paymentRail);
    // An override in the request replaces the platform's configured fee (the reference's platformFeeOverride).
    const price = this.pricing.price(priced, request, request.platformFeeOverride ? undefined : configuredPlatformFee(await feeConfigs, source.currency, destination.currency));
    const customer = await readiness;
    // A customer subject to Strong Customer Authentication (an EEA address) authorizes the payment; an embedded wallet's signature already does.
    const scaRegulated = customer?.scaRegulated === true && source.account?.type !== 'EMBEDDED_WALLET';

    const now = this.clock.now();
    const id = newId('Quote');
    const expiresAt = new Date(now.getTime() + this.config.quoteValiditySeconds * 1000);
    // Every refusal came first: only a quote that will exist gets its wallet challenge.
    const walletSignature =
      source.account?.type === 'EMBEDDED_WALLET'
        ? await this.issueExecutionChallenge(ctx, { id, sourceAccountId: source.account.id, sendingAmount: price.sending, sourceCurrency: source.currency, expiresAt })
        : undefined;
    const quote: NewQuote = {
      id,
      platformId: ctx.platformId,
      sourceType: request.source.sourceType,
      sourceAccountId: source.account?.id ?? null,
      fundingAccountId: source.fundingAccountId,
      customerId: source.customerId,
      sourceCurrency: source.currency,
      cryptoNetwork: request.source.cryptoNetwork ?? null,
      destinationType: request.destination.destinationType,
      destinationKind: destination.kind,
      destinationAccountId: destination.accountId,
      destinationUmaAddress: destination.umaAddress,
      destinationCurrency: destination.currency,
      paymentRail: priced.corridor.rail,
      lockedSide: request.lockedCurrencySide,
      sendingAmount: price.sending,
      receivingAmount: price.receiving,
      serviceFee: price.serviceFee,
      platformFee: price.platformFee,
      rateMicros: priced.corridor.rateMicros,
      fixedFee: priced.corridor.fixedFee,
      variableFeeBps: Number(priced.corridor.variableFeeBps),
      transactionId: newId('Transaction'),
      sandboxOutcome: destination.sandboxOutcome,
      fundingReference: request.source.sourceType === 'REALTIME_FUNDING' ? fundingReference(id) : null,
      description: request.description ?? null,
      extra: {
        ...(request.remittanceInformation !== undefined ? { remittanceInformation: request.remittanceInformation } : {}),
        ...(request.purposeOfPayment !== undefined ? { purposeOfPayment: request.purposeOfPayment } : {}),
        ...(request.lookupId !== undefined ? { lookupId: request.lookupId } : {}),
        ...(customer?.platformCustomerId !== undefined ? { platformCustomerId: customer.platformCustomerId } : {}),
        ...(request.destination.paymentRail !== undefined ? { railChosen: true } : {}),
        ...(request.senderCustomerInfo !== undefined ? { senderCustomerInfo: request.senderCustomerInfo } : {}),
        ...(destination.counterpartyInformation ? { counterpartyInformation: destination.counterpartyInformation } : {}),
        ...(walletSignature ? { walletSignature } : {}),
        ...(scaRegulated ? { scaRegulated: true, ...(request.scaFactor !== undefined ? { scaFactor: request.scaFactor } : {}) } : {}),
      },
      createdAt: now,
      expiresAt,
    };
    return { quote, scaRegulated };
  }

  /**
   * The challenge an EMBEDDED_WALLET quote carries as `payloadToSign`: bound to the wallet, the
   * quote id, amount and currency (not to an HTTP request), expiring with the quote.
   */
  private async issueExecutionChallenge(
    ctx: CallerContext,
    quote: Pick<QuoteEntity, 'id' | 'sourceAccountId' | 'sendingAmount' | 'sourceCurrency' | 'expiresAt'>,
  ): Promise<NonNullable<QuoteEntity['extra']['walletSignature']>> {
    const challenge = await walletAuthOverTransport(this.services).issue(ctx, {
      accountId: quote.sourceAccountId!,
      operation: 'QUOTE_EXECUTE',
      requestDigest: quoteExecutionDigest(quote),
      expiresAt: quote.expiresAt.toISOString(),
      parameters: { quoteId: quote.id, amount: quote.sendingAmount.toString(), currency: quote.sourceCurrency },
    });
    return { requestId: challenge.requestId, payloadToSign: challenge.payloadToSign };
  }
}

/** The reference a real-time funded quote's payment must carry: derived from the quote id, unique with it. */
function fundingReference(quoteId: string): string {
  return `QT-${quoteId
    .replace(/^Quote:/, '')
    .replace(/-/g, '')
    .slice(-12)
    .toUpperCase()}`;
}
