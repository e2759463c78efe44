import { Global, Module } from '@nestjs/common';
import { WalletAccountsRepository } from '../accounts/wallet-accounts.repository';
import { ChallengesRepository } from '../credentials/challenges.repository';
import { CredentialsRepository } from '../credentials/credentials.repository';
import { SessionsRepository } from '../sessions/sessions.repository';
import { SignedRetryRepository } from '../signed-retry/signed-retry.repository';

/** The service's repositories: several features read the same tables (a session names its credential). */
@Global()
@Module({
  providers: [WalletAccountsRepository, CredentialsRepository, SessionsRepository, ChallengesRepository, SignedRetryRepository],
  exports: [WalletAccountsRepository, CredentialsRepository, SessionsRepository, ChallengesRepository, SignedRetryRepository],
})
export class RepositoriesModule {}
