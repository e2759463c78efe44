import { EDD_FIELDS, KycStatus, VerificationError, VerificationStatus } from '@paykit/contracts';
import { CustomerEntity } from '../customers/entities/customer.entity';
import { businessKybOutcome, individualKycOutcome } from './verifications.sandbox';

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
