import { Injectable } from '@nestjs/common';
import { CallerContext } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { ResolvedDestination, UmaReceiverResolver } from '../quotes/quotes.service';
import { sandboxUmaOutcomeKey, sandboxUmaReceiver } from './receiver-lookup.sandbox';
import { parseUmaAddress } from './uma-address';

/**
 * Who a UMA address is: a sandbox counterparty (sandbox callers only). Nothing calls the
 * internet: an address of another domain is not found.
 */
@Injectable()
export class ReceiverLookupService implements UmaReceiverResolver {
  async resolveForQuote(ctx: CallerContext, umaAddress: string, currency: string | undefined): Promise<ResolvedDestination> {
    const address = parseUmaAddress(umaAddress, 'destination.umaAddress');
    const sandbox = ctx.environment === 'sandbox' ? sandboxUmaReceiver(address) : undefined;
    if (!sandbox) throw new ServiceError('UMA_NOT_FOUND', `No receiver at ${address}`);
    if (currency !== undefined && currency !== sandbox.currency) {
      throw new ServiceError('INVALID_CURRENCY', `${address} receives ${sandbox.currency} only`, { field: 'destination.currency', supportedCurrencies: [sandbox.currency] });
    }
    return {
      kind: 'UMA_SANDBOX',
      currency: sandbox.currency,
      accountId: null,
      umaAddress: address,
      sandboxOutcome: sandboxUmaOutcomeKey(sandbox.behaviour),
      counterpartyInformation: { FULL_NAME: sandbox.name },
    };
  }
}
