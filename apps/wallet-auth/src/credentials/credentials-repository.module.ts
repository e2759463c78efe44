import { Module } from '@nestjs/common';
import { CredentialsRepository } from './credentials.repository';

/**
 * The credentials' table alone, below accounts and sessions (an account is created with its first
 * credential, a session names its credential), so neither needs the credentials module that uses them.
 */
@Module({
  providers: [CredentialsRepository],
  exports: [CredentialsRepository],
})
export class CredentialsRepositoryModule {}
