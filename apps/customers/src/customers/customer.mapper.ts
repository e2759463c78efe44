import { Customer } from '@paykit/contracts';
import { CustomerEntity } from './entities/customer.entity';

/** The Customer resource exactly as the API returns it (GET, replies and webhooks alike). */
export function toCustomer(entity: CustomerEntity): Customer {
  const contactVerification = entity.contactVerification && Object.keys(entity.contactVerification).length > 0 ? entity.contactVerification : null;
  return {
    id: entity.id,
    platformCustomerId: entity.platformCustomerId,
    customerType: entity.customerType,
    ...(entity.fullName !== null ? { fullName: entity.fullName } : {}),
    ...(entity.birthDate !== null ? { birthDate: entity.birthDate } : {}),
    ...(entity.nationality !== null ? { nationality: entity.nationality } : {}),
    ...(entity.email !== null ? { email: entity.email } : {}),
    ...(entity.phoneNumber !== null ? { phoneNumber: entity.phoneNumber } : {}),
    ...(entity.address !== null ? { address: entity.address } : {}),
    ...(entity.businessInfo !== null ? { businessInfo: entity.businessInfo } : {}),
    ...(entity.umaAddress !== null ? { umaAddress: entity.umaAddress } : {}),
    ...(entity.sourceOfWealthCategories !== null ? { sourceOfWealthCategories: entity.sourceOfWealthCategories } : {}),
    ...(entity.purposeOfAccount !== null ? { purposeOfAccount: entity.purposeOfAccount } : {}),
    ...(entity.annualIncomeRange !== null ? { annualIncomeRange: entity.annualIncomeRange } : {}),
    ...(entity.kycStatus !== null ? { kycStatus: entity.kycStatus } : {}),
    ...(entity.kybStatus !== null ? { kybStatus: entity.kybStatus } : {}),
    ...(contactVerification ? { contactVerification } : {}),
    createdAt: entity.createdAt.toISOString(),
    updatedAt: entity.updatedAt.toISOString(),
  };
}
