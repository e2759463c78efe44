import { DiscoveryList, ExternalAccount, ExternalAccountPage, ExternalAccountWithRouting, OwnershipChallenge } from './replies';
import {
  CreateExternalAccountMessage,
  GetExternalAccountRequest,
  ListDiscoveriesQuery,
  ListExternalAccountsMessage,
  OwnershipChallengeMessage,
  OwnershipVerifyMessage,
  RemoveExternalAccountRequest,
  UpdateExternalAccountMessage,
} from './requests';

export const EXTERNAL_ACCOUNTS_SUBJECTS = {
  createAccount: 'external-accounts.account.create',
  listAccounts: 'external-accounts.account.list',
  /**
   * One account of the caller's platform, customer or platform owned, with the internal
   * `routing` block (other services: payments). The gateway strips `routing`.
   */
  getAccount: 'external-accounts.account.get',
  updateAccount: 'external-accounts.account.update',
  removeAccount: 'external-accounts.account.remove',
  listDiscoveries: 'external-accounts.discovery.list',
  /** Start (or restart) ownership verification of a first-party self-custody wallet. */
  startOwnershipChallenge: 'external-accounts.ownership.challenge',
  /** Complete a WALLET_SIGNATURE ownership challenge. */
  verifyOwnership: 'external-accounts.ownership.verify',
} as const;

export interface ExternalAccountsContract {
  [EXTERNAL_ACCOUNTS_SUBJECTS.createAccount]: { request: CreateExternalAccountMessage; reply: ExternalAccount };
  [EXTERNAL_ACCOUNTS_SUBJECTS.listAccounts]: { request: ListExternalAccountsMessage; reply: ExternalAccountPage };
  [EXTERNAL_ACCOUNTS_SUBJECTS.getAccount]: { request: GetExternalAccountRequest; reply: ExternalAccountWithRouting };
  [EXTERNAL_ACCOUNTS_SUBJECTS.updateAccount]: { request: UpdateExternalAccountMessage; reply: ExternalAccount };
  [EXTERNAL_ACCOUNTS_SUBJECTS.removeAccount]: { request: RemoveExternalAccountRequest; reply: ExternalAccount };
  [EXTERNAL_ACCOUNTS_SUBJECTS.listDiscoveries]: { request: ListDiscoveriesQuery; reply: DiscoveryList };
  [EXTERNAL_ACCOUNTS_SUBJECTS.startOwnershipChallenge]: { request: OwnershipChallengeMessage; reply: OwnershipChallenge };
  [EXTERNAL_ACCOUNTS_SUBJECTS.verifyOwnership]: { request: OwnershipVerifyMessage; reply: ExternalAccount };
}
