import { Inject, Injectable } from '@nestjs/common';
import { CallerContext, EXTERNAL_ACCOUNTS_SUBJECTS, ExternalAccountWithRouting } from '@paykit/contracts';
import { SERVICE_CLIENT, ServiceClient } from '@paykit/transport';

/** The external-accounts service's answer for a transfer counterparty, with its internal routing facts. */
@Injectable()
export class ExternalAccountsClient {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  get(ctx: CallerContext, externalAccountId: string): Promise<ExternalAccountWithRouting> {
    return this.services.request(EXTERNAL_ACCOUNTS_SUBJECTS.getAccount, { externalAccountId }, ctx);
  }
}
