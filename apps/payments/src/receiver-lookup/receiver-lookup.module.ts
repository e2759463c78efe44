import { Module } from '@nestjs/common';
import { UMA_RECEIVER_RESOLVER } from '../quotes/quotes.service';
import { ReceiverLookupService } from './receiver-lookup.service';

@Module({
  providers: [ReceiverLookupService, { provide: UMA_RECEIVER_RESOLVER, useExisting: ReceiverLookupService }],
  exports: [ReceiverLookupService, UMA_RECEIVER_RESOLVER],
})
export class ReceiverLookupModule {}
