import { runServiceProcess } from '@paykit/runtime';
import { WebhooksAppModule } from './app.module';

void runServiceProcess('webhooks', WebhooksAppModule);
