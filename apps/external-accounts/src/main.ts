import { runServiceProcess } from '@paykit/runtime';
import { ExternalAccountsAppModule } from './app.module';

void runServiceProcess('external-accounts', ExternalAccountsAppModule);
