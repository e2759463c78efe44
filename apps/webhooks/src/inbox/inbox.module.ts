import { Module } from '@nestjs/common';
import { InboxHandlers } from './inbox.handlers';
import { InboxService } from './inbox.service';

@Module({ controllers: [InboxHandlers], providers: [InboxService] })
export class InboxModule {}
