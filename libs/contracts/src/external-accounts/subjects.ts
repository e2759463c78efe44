import { DiscoveryList, ExternalAccount, ExternalAccountPage, ExternalAccountWithRouting } from './replies';
import {
  CreateExternalAccountMessage,
  GetExternalAccountRequest,
  ListDiscoveriesQuery,
  ListExternalAccountsMessage,
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
} as const;

export interface ExternalAccountsContract {
  [EXTERNAL_ACCOUNTS_SUBJECTS.createAccount]: { request: CreateExternalAccountMessage; reply: ExternalAccount };
  [EXTERNAL_ACCOUNTS_SUBJECTS.listAccounts]: { request: ListExternalAccountsMessage; reply: ExternalAccountPage };
  [EXTERNAL_ACCOUNTS_SUBJECTS.getAccount]: { request: GetExternalAccountRequest; reply: ExternalAccountWithRouting };
  [EXTERNAL_ACCOUNTS_SUBJECTS.updateAccount]: { request: UpdateExternalAccountMessage; reply: ExternalAccount };
  [EXTERNAL_ACCOUNTS_SUBJECTS.removeAccount]: { request: RemoveExternalAccountRequest; reply: ExternalAccount };
  [EXTERNAL_ACCOUNTS_SUBJECTS.listDiscoveries]: { request: ListDiscoveriesQuery; reply: DiscoveryList };
}
