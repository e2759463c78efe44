import { DocumentType, EDD_FIELDS, KycStatus, VerificationError, VerificationStatus } from '@paykit/contracts';
import { CustomerEntity } from '../customers/entities/customer.entity';
import { businessKybOutcome, hostedBusinessKybOutcome, hostedInitialStatus, individualKycOutcome } from './verifications.sandbox';

export interface VerificationDecision {
  verificationStatus: VerificationStatus;
  /** The customer's KYC (individual) or KYB (business) status after this verification. */
  status: KycStatus;
  errors?: VerificationError[];
}

function missing(resourceId: string, field: string, reason: string): VerificationError {
  return { resourceId, type: 'MISSING_FIELD', field, reason };
}

/**
 * What a verification of this customer concludes. Only PENDING customers move; approved ones
 * stay approved (IN_PROGRESS: nothing left to do) and rejected ones stay rejected. Where sandbox
 * rules apply (`SandboxRules`) the spec's suffix tables decide; elsewhere reviews stay PENDING (no provider here).
 */
export function decideVerification(sandbox: boolean, customer: CustomerEntity): VerificationDecision {
  const isBusiness = customer.customerType === 'BUSINESS';
  const current = (isBusiness ? customer.kybStatus : customer.kycStatus) ?? 'PENDING';
  if (current === 'APPROVED') return { verificationStatus: 'IN_PROGRESS', status: current };
  if (current === 'REJECTED') return { verificationStatus: 'REJECTED', status: current };
  // Statuses only a regulated platform states (UNVERIFIED, HOLD): the review starts from PENDING.
  const start: KycStatus = current === 'PENDING' ? current : 'PENDING';

  const key = isBusiness ? customer.businessInfo?.registrationNumber : customer.fullName;
  if (!key) {
    const field = isBusiness ? 'businessInfo.registrationNumber' : 'fullName';
    return { verificationStatus: 'RESOLVE_ERRORS', status: start, errors: [missing(customer.id, field, `${field} is needed to verify this customer`)] };
  }
  if (!sandbox) return { verificationStatus: 'IN_PROGRESS', status: start };

  const outcome = isBusiness ? businessKybOutcome(key) : individualKycOutcome(key);
  if (outcome.requiresEdd) {
    const absent = EDD_FIELDS.filter((field) => customer[field] === null);
    if (absent.length > 0) {
      return {
        verificationStatus: 'RESOLVE_ERRORS',
        status: start,
        errors: absent.map((field) => missing(customer.id, `edd.${field}`, `Enhanced due diligence needs ${field}: PATCH the customer, then verify again`)),
      };
    }
    // Once the enhanced due diligence answers are in, the review passes.
    return { verificationStatus: 'IN_PROGRESS', status: 'APPROVED' };
  }
  return { verificationStatus: outcome.verificationStatus, status: outcome.status ?? start };
}

// ---- The HOSTED sandbox profile (the hosted sandbox's current guides) ----

/** What a HOSTED verification looks at besides the customer: its documents and, for a business, its beneficial owners. */
export interface HostedEvidence {
  /** Types of the customer's own documents that were not rejected, with an id for each. */
  documents: Array<{ id: string; documentType: DocumentType }>;
  beneficialOwnerCount: number;
}

const IDENTITY_DOCUMENTS: DocumentType[] = ['PASSPORT', 'DRIVERS_LICENSE', 'NATIONAL_ID'];
const LEGAL_PRESENCE_DOCUMENTS: DocumentType[] = ['CERTIFICATE_OF_INCORPORATION', 'ARTICLES_OF_INCORPORATION', 'ARTICLES_OF_ASSOCIATION', 'STATE_REGISTRY_EXCERPT'];
/** The data a submission needs, as the guide lists it (individuals) or the reference's KYB data (businesses). */
const HOSTED_INDIVIDUAL_FIELDS = ['fullName', 'birthDate', 'nationality', 'idType', 'identifier', 'address'] as const;
const HOSTED_BUSINESS_FIELDS = ['businessInfo.legalName', 'businessInfo.registrationNumber', 'businessInfo.taxId', 'address'] as const;

/** A verification the HOSTED profile refuses: the customer was decided already (400 on POST /verifications). */
export class AlreadyDecided {
  constructor(readonly status: KycStatus) {}
}

function valueAt(customer: CustomerEntity, path: string): unknown {
  return path.split('.').reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), customer);
}

function missingData(customer: CustomerEntity, fields: readonly string[]): VerificationError[] {
  return fields
    .filter((field) => {
      const value = valueAt(customer, field);
      return value === undefined || value === null || value === '';
    })
    .map((field) => missing(customer.id, field, `${field} is required`));
}

/**
 * What `POST /verifications` concludes under the HOSTED profile (`snippets/sandbox-verification.mdx`,
 * `snippets/kyc/kyb-sandbox-suffixes.mdx`): a customer already APPROVED or REJECTED cannot be
 * submitted (AlreadyDecided: 400). Individuals (001 PENDING, 003 UNVERIFIED at creation) need full
 * name, birth date, nationality, idType and identifier, address and an identity document, else
 * RESOLVE_ERRORS listing each; complete, 001 waits on manual review (PENDING_MANUAL_REVIEW, still
 * PENDING) and 003 answers RESOLVE_ERRORS with POOR_QUALITY_DOCUMENT. Businesses by their
 * registration number: 002 REJECTED and any other suffix but 001/003 APPROVED at once; 001/003 need
 * the business data, a legal presence document and a beneficial owner, then stay PENDING under
 * manual review.
 */
export function decideHostedVerification(customer: CustomerEntity, evidence: HostedEvidence): VerificationDecision | AlreadyDecided {
  const isBusiness = customer.customerType === 'BUSINESS';
  const current = (isBusiness ? customer.kybStatus : customer.kycStatus) ?? 'UNVERIFIED';
  if (current === 'APPROVED' || current === 'REJECTED') return new AlreadyDecided(current);
  const has = (types: DocumentType[]) => evidence.documents.find((document) => types.includes(document.documentType));

  if (isBusiness) {
    const outcome = hostedBusinessKybOutcome(customer.businessInfo?.registrationNumber ?? '001');
    if (outcome !== 'REVIEW') return { verificationStatus: outcome, status: outcome };
    const errors = missingData(customer, HOSTED_BUSINESS_FIELDS);
    if (!has(LEGAL_PRESENCE_DOCUMENTS)) {
      errors.push({
        resourceId: customer.id,
        type: 'MISSING_LEGAL_PRESENCE_DOCUMENT',
        acceptedDocumentTypes: LEGAL_PRESENCE_DOCUMENTS,
        reason: 'A legal presence document is required',
      });
    }
    if (evidence.beneficialOwnerCount === 0) errors.push({ resourceId: customer.id, type: 'MISSING_BENEFICIAL_OWNER', reason: 'At least one beneficial owner is required' });
    if (errors.length > 0) return { verificationStatus: 'RESOLVE_ERRORS', status: current, errors };
    return { verificationStatus: 'PENDING_MANUAL_REVIEW', status: 'PENDING' };
  }

  const suffixStatus = hostedInitialStatus('INDIVIDUAL', customer.fullName ?? undefined);
  // A customer created before the platform chose HOSTED: its name decides as it would have at creation.
  if (suffixStatus === 'APPROVED' || suffixStatus === 'REJECTED') {
    return { verificationStatus: suffixStatus, status: suffixStatus };
  }
  const errors = missingData(customer, HOSTED_INDIVIDUAL_FIELDS);
  const identity = has(IDENTITY_DOCUMENTS);
  if (!identity) {
    errors.push({ resourceId: customer.id, type: 'MISSING_IDENTITY_DOCUMENT', acceptedDocumentTypes: IDENTITY_DOCUMENTS, reason: 'Identity document is required' });
  }
  if (errors.length > 0 || !identity) return { verificationStatus: 'RESOLVE_ERRORS', status: current, errors };
  if (suffixStatus === 'UNVERIFIED') {
    return {
      verificationStatus: 'RESOLVE_ERRORS',
      status: current,
      errors: [{ resourceId: identity.id, type: 'POOR_QUALITY_DOCUMENT', reason: 'The identity document is of poor quality: upload a clearer one and verify again' }],
    };
  }
  return { verificationStatus: 'PENDING_MANUAL_REVIEW', status: 'PENDING' };
}
