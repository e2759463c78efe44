import { businessKybOutcome, hostedBusinessKybOutcome, hostedInitialStatus, individualKycOutcome } from './verifications.sandbox';

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

describe(`HOSTED profile: ${hostedInitialStatus.name}`, () => {
  it.each([
    ['INDIVIDUAL', 'Jane Doe 001', 'PENDING'],
    ['INDIVIDUAL', 'Jane Doe 002', 'REJECTED'],
    ['INDIVIDUAL', 'Jane Doe 003', 'UNVERIFIED'],
    ['INDIVIDUAL', 'Jane Doe', 'APPROVED'],
    ['INDIVIDUAL', undefined, 'APPROVED'],
    ['BUSINESS', undefined, 'UNVERIFIED'],
  ] as const)('%s %s: %s at creation', (customerType, fullName, status) => expect(hostedInitialStatus(customerType, fullName)).toBe(status));
});

describe(`HOSTED profile: ${hostedBusinessKybOutcome.name}`, () => {
  it.each([
    ['REG-000001', 'REVIEW'],
    ['REG-000002', 'REJECTED'],
    ['REG-000003', 'REVIEW'],
    ['REG-000123', 'APPROVED'],
  ])('%s: %s', (registrationNumber, outcome) => expect(hostedBusinessKybOutcome(registrationNumber)).toBe(outcome));
});
