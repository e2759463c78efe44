import { Module } from '@nestjs/common';
import { PersistenceModule, ServiceDatabaseOptions } from '@paykit/persistence';
import { AccountsModule } from './accounts/accounts.module';
import { WalletAccountEntity } from './accounts/entities/wallet-account.entity';
import { CredentialsModule } from './credentials/credentials.module';
import { DelegatedKeysModule } from './delegated-keys/delegated-keys.module';
import { DelegatedKeyEntity } from './delegated-keys/entities/delegated-key.entity';
import { AuthCredentialEntity } from './credentials/entities/auth-credential.entity';
import { CreateWalletAuth1732300400000 } from './migrations/1732300400000-CreateWalletAuth';
import { CreateDelegatedKey1764100000000 } from './migrations/1764100000000-CreateDelegatedKey';
import { CreateSca1766000000000 } from './migrations/1766000000000-CreateSca';
import { ScaModule } from './sca/sca.module';
import { AuthSessionEntity } from './sessions/entities/auth-session.entity';
import { SessionsModule } from './sessions/sessions.module';
import { SignedRetryModule } from './signed-retry/signed-retry.module';

/** wallet-auth's database: its entities and migrations (repository specs run them on PGlite). */
export const WALLET_AUTH_DATABASE: ServiceDatabaseOptions = {
  service: 'wallet-auth',
  entities: [WalletAccountEntity, AuthCredentialEntity, AuthSessionEntity, DelegatedKeyEntity],
  migrations: [CreateWalletAuth1732300400000, CreateDelegatedKey1764100000000, CreateSca1766000000000],
};

/** The wallet-auth bounded context: credentials, sessions, delegated keys, the enclave key and the signed-retry mechanism. */
@Module({
  imports: [PersistenceModule.forService(WALLET_AUTH_DATABASE), SignedRetryModule, AccountsModule, SessionsModule, CredentialsModule, DelegatedKeysModule, ScaModule],
})
export class WalletAuthAppModule {}
