import { beneficialOwnerKycStatus, businessKybOutcome, CONTACT_VERIFICATION_RULES, documentReview, individualKycOutcome } from './sandbox-rules';

describe('sandbox rules', () => {
  describe(individualKycOutcome.name, () => {
    it.each([
      ['Jane Doe001', { verificationStatus: 'IN_PROGRESS', status: 'PENDING' }],
      ['Jane Doe002', { verificationStatus: 'REJECTED', status: 'REJECTED' }],
      ['Jane Doe003', { verificationStatus: 'RESOLVE_ERRORS', requiresEdd: true }],
      ['Jane Doe', { verificationStatus: 'IN_PROGRESS', status: 'APPROVED' }],
    ])('%s', (fullName, outcome) => expect(individualKycOutcome(fullName)).toEqual(outcome));
  });

  describe(businessKybOutcome.name, () => {
    it.each([
      ['REG-001', 'PENDING'],
      ['12-3002', 'REJECTED'],
      ['RN 4 5 0 0 3', 'APPROVED'],
      ['REG-000123', 'APPROVED'],
    ])('%s: last 3 digits', (registrationNumber, status) => expect(businessKybOutcome(registrationNumber).status).toBe(status));
  });

  describe(beneficialOwnerKycStatus.name, () => {
    it.each([
      ['Hopper001', 'PENDING'],
      ['Hopper002', 'REJECTED'],
      ['Hopper', 'APPROVED'],
    ])('%s', (lastName, status) => expect(beneficialOwnerKycStatus(lastName)).toBe(status));
  });

  describe('contact verification rules', () => {
    it.each([
      ['email', 'ada+verify@example.com', true],
      ['email', 'ADA+VERIFY@EXAMPLE.COM', true],
      ['email', 'ada@example.com', false],
      ['email', 'ada+verifyme@example.com', false],
      ['phone', '+14155550000', true],
      ['phone', '+14155550001', false],
    ] as const)('%s %s requires verification: %s', (channel, value, required) => expect(CONTACT_VERIFICATION_RULES[channel](value)).toBe(required));
  });

  describe(documentReview.name, () => {
    it.each([
      ['id001.pdf', { status: 'PENDING' }],
      ['id002.pdf', { status: 'REJECTED', rejectionReason: 'LOW_QUALITY' }],
      ['id003.png', { status: 'REJECTED', rejectionReason: 'DATA_MISMATCH' }],
      ['id004.jpg', { status: 'REJECTED', rejectionReason: 'EXPIRED' }],
      ['id005', { status: 'REJECTED', rejectionReason: 'SUSPECTED_FRAUD' }],
      ['id006.pdf', { status: 'REJECTED', rejectionReason: 'UNSUITABLE_DOCUMENT' }],
      ['id007.pdf', { status: 'REJECTED', rejectionReason: 'INCOMPLETE' }],
      ['passport.pdf', { status: 'APPROVED' }],
    ])('%s', (fileName, review) => expect(documentReview(fileName)).toEqual(review));
  });
});
