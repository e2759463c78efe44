import { runServiceProcess } from '@paykit/runtime';
import { WalletAuthAppModule } from './app.module';

void runServiceProcess('wallet-auth', WalletAuthAppModule);
