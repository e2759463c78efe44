import { Customer } from '@paykit/contracts';
import { CustomerEntity } from './entities/customer.entity';

/** The Customer resource exactly as the API returns it (GET, replies and webhooks alike). */
export function toCustomer(entity: CustomerEntity): Customer {
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
    ...(entity.kycStatus !== null ? { kycStatus: entity.kycStatus } : {}),
    ...(entity.kybStatus !== null ? { kybStatus: entity.kybStatus } : {}),
    createdAt: entity.createdAt.toISOString(),
    updatedAt: entity.updatedAt.toISOString(),
  };
}
