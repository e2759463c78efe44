import { Page } from '../common';
import { SignedRetryOutcome } from '../wallet-auth';
import {
  AppendBulkImportRowsRequest,
  AppendDocumentChunkRequest,
  CompleteDocumentUploadRequest,
  CompleteKycLinkRequest,
  ConfirmContactCodeRequest,
  ContactCodeRequest,
  CreateBeneficialOwnerRequest,
  CreateKycLinkRequest,
  CreateVerificationRequest,
  FinishBulkImportRequest,
  GetBeneficialOwnerRequest,
  GetBulkImportRequest,
  GetDocumentRequest,
  GetVerificationRequest,
  ListVerificationsRequest,
  UpdateBeneficialOwnerRequest,
  KycLinkTokenRequest,
  ListBeneficialOwnersRequest,
  ListDocumentsRequest,
  StartBulkImportRequest,
  StartDocumentUploadRequest,
} from './onboarding-requests';
import {
  BeneficialOwner,
  BulkImportJob,
  BulkRowsProcessed,
  ContactCodeSent,
  Customer,
  CustomerDocument,
  CustomerProvisioning,
  CustomerRequirements,
  CustomersPlatformConfig,
  DocumentUploadStarted,
  EndUserTerms,
  KycLinkCompletion,
  KycLinkIssued,
  KycLinkView,
  Verification,
} from './replies';
import { CheckRequirementsRequest, CreateCustomerRequest, GetCustomerRequest, ListCustomersRequest, UpdateCustomerRequest, UpdatePlatformConfigRequest } from './requests';

export const CUSTOMERS_SUBJECTS = {
  createCustomer: 'customers.customer.create',
  getCustomer: 'customers.customer.get',
  listCustomers: 'customers.customer.list',
  updateCustomer: 'customers.customer.update',
  deleteCustomer: 'customers.customer.delete',
  getProvisioning: 'customers.customer.provisioning.get',
  getEndUserTerms: 'customers.end-user-terms.get',
  /** For other services' flows: 400 MISSING_MANDATORY_USER_INFO unless the customer may transact in a currency. */
  checkRequirements: 'customers.customer.requirements.check',
  getConfig: 'customers.config.get',
  /** Operator-only (no HTTP route): regulated flag and UMA domain of a platform. */
  updateConfig: 'customers.config.update',
  createVerification: 'customers.verification.create',
  getVerification: 'customers.verification.get',
  listVerifications: 'customers.verification.list',
  sendContactCode: 'customers.contact-code.send',
  confirmContactCode: 'customers.contact-code.confirm',
  createKycLink: 'customers.kyc-link.create',
  openKycLink: 'customers.kyc-link.open',
  completeKycLink: 'customers.kyc-link.complete',
  createBeneficialOwner: 'customers.beneficial-owner.create',
  getBeneficialOwner: 'customers.beneficial-owner.get',
  updateBeneficialOwner: 'customers.beneficial-owner.update',
  listBeneficialOwners: 'customers.beneficial-owner.list',
  startDocumentUpload: 'customers.document.start-upload',
  appendDocumentChunk: 'customers.document.append-chunk',
  completeDocumentUpload: 'customers.document.complete-upload',
  getDocument: 'customers.document.get',
  deleteDocument: 'customers.document.delete',
  listDocuments: 'customers.document.list',
  startBulkImport: 'customers.bulk-import.start',
  appendBulkImportRows: 'customers.bulk-import.append-rows',
  finishBulkImport: 'customers.bulk-import.finish',
  getBulkImport: 'customers.bulk-import.get',
} as const;

export interface CustomersContract {
  [CUSTOMERS_SUBJECTS.createCustomer]: { request: CreateCustomerRequest; reply: Customer };
  [CUSTOMERS_SUBJECTS.getCustomer]: { request: GetCustomerRequest; reply: Customer };
  [CUSTOMERS_SUBJECTS.listCustomers]: { request: ListCustomersRequest; reply: Page<Customer> };
  [CUSTOMERS_SUBJECTS.updateCustomer]: { request: UpdateCustomerRequest; reply: SignedRetryOutcome<Customer> };
  [CUSTOMERS_SUBJECTS.deleteCustomer]: { request: GetCustomerRequest; reply: Customer };
  [CUSTOMERS_SUBJECTS.getProvisioning]: { request: GetCustomerRequest; reply: CustomerProvisioning };
  [CUSTOMERS_SUBJECTS.getEndUserTerms]: { request: Record<string, never>; reply: EndUserTerms };
  [CUSTOMERS_SUBJECTS.checkRequirements]: { request: CheckRequirementsRequest; reply: CustomerRequirements };
  [CUSTOMERS_SUBJECTS.getConfig]: { request: Record<string, never>; reply: CustomersPlatformConfig };
  [CUSTOMERS_SUBJECTS.updateConfig]: { request: UpdatePlatformConfigRequest; reply: CustomersPlatformConfig };
  [CUSTOMERS_SUBJECTS.createVerification]: { request: CreateVerificationRequest; reply: Verification };
  [CUSTOMERS_SUBJECTS.getVerification]: { request: GetVerificationRequest; reply: Verification };
  [CUSTOMERS_SUBJECTS.listVerifications]: { request: ListVerificationsRequest; reply: Page<Verification> };
  [CUSTOMERS_SUBJECTS.sendContactCode]: { request: ContactCodeRequest; reply: ContactCodeSent };
  [CUSTOMERS_SUBJECTS.confirmContactCode]: { request: ConfirmContactCodeRequest; reply: Customer };
  [CUSTOMERS_SUBJECTS.createKycLink]: { request: CreateKycLinkRequest; reply: KycLinkIssued };
  [CUSTOMERS_SUBJECTS.openKycLink]: { request: KycLinkTokenRequest; reply: KycLinkView };
  [CUSTOMERS_SUBJECTS.completeKycLink]: { request: CompleteKycLinkRequest; reply: KycLinkCompletion };
  [CUSTOMERS_SUBJECTS.createBeneficialOwner]: { request: CreateBeneficialOwnerRequest; reply: BeneficialOwner };
  [CUSTOMERS_SUBJECTS.getBeneficialOwner]: { request: GetBeneficialOwnerRequest; reply: BeneficialOwner };
  [CUSTOMERS_SUBJECTS.updateBeneficialOwner]: { request: UpdateBeneficialOwnerRequest; reply: BeneficialOwner };
  [CUSTOMERS_SUBJECTS.listBeneficialOwners]: { request: ListBeneficialOwnersRequest; reply: Page<BeneficialOwner> };
  [CUSTOMERS_SUBJECTS.startDocumentUpload]: { request: StartDocumentUploadRequest; reply: DocumentUploadStarted };
  [CUSTOMERS_SUBJECTS.appendDocumentChunk]: { request: AppendDocumentChunkRequest; reply: { received: number } };
  [CUSTOMERS_SUBJECTS.completeDocumentUpload]: { request: CompleteDocumentUploadRequest; reply: CustomerDocument };
  [CUSTOMERS_SUBJECTS.getDocument]: { request: GetDocumentRequest; reply: CustomerDocument };
  [CUSTOMERS_SUBJECTS.deleteDocument]: { request: GetDocumentRequest; reply: { deleted: true } };
  [CUSTOMERS_SUBJECTS.listDocuments]: { request: ListDocumentsRequest; reply: Page<CustomerDocument> };
  [CUSTOMERS_SUBJECTS.startBulkImport]: { request: StartBulkImportRequest; reply: BulkImportJob };
  [CUSTOMERS_SUBJECTS.appendBulkImportRows]: { request: AppendBulkImportRowsRequest; reply: BulkRowsProcessed };
  [CUSTOMERS_SUBJECTS.finishBulkImport]: { request: FinishBulkImportRequest; reply: BulkImportJob };
  [CUSTOMERS_SUBJECTS.getBulkImport]: { request: GetBulkImportRequest; reply: BulkImportJob };
}
