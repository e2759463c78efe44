import { Module } from '@nestjs/common';
import { PersistenceModule } from '@paykit/persistence';
import { AccountsModule } from './accounts/accounts.module';
import { WalletAccountEntity } from './accounts/entities/wallet-account.entity';
import { CredentialsModule } from './credentials/credentials.module';
import { AuthCredentialEntity } from './credentials/entities/auth-credential.entity';
import { CreateWalletAuth1732300400000 } from './migrations/1732300400000-CreateWalletAuth';
import { AuthSessionEntity } from './sessions/entities/auth-session.entity';
import { SessionsModule } from './sessions/sessions.module';
import { SignedRetryModule } from './signed-retry/signed-retry.module';

/** The wallet-auth bounded context: credentials, sessions, the enclave key and the signed-retry mechanism. */
@Module({
  imports: [
    PersistenceModule.forService({
      service: 'wallet-auth',
      entities: [WalletAccountEntity, AuthCredentialEntity, AuthSessionEntity],
      migrations: [CreateWalletAuth1732300400000],
    }),
    SignedRetryModule,
    AccountsModule,
    SessionsModule,
    CredentialsModule,
  ],
})
export class WalletAuthAppModule {}
