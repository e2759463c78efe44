import { beneficialOwnerKycStatus } from './beneficial-owners.sandbox';

describe(beneficialOwnerKycStatus.name, () => {
  it.each([
    ['Hopper001', 'PENDING'],
    ['Hopper002', 'REJECTED'],
    ['Hopper', 'APPROVED'],
  ])('%s', (lastName, status) => expect(beneficialOwnerKycStatus(lastName)).toBe(status));
});
