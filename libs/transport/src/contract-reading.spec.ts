import { ContractChanges } from '@paykit/contracts';
import { NewerContractVersion, readAtCurrentVersion } from './contract-reading';

const SUBJECT = 'customers.customer.create';
/** Version 3 of the contract: version 2 split `name` into `firstName` and `lastName`. */
const CHANGES: ContractChanges = {
  [SUBJECT]: {
    version: 3,
    fromPrevious: (previous) => {
      const { name, ...rest } = previous as { name: string };
      const [firstName, lastName] = name.split(' ');
      return { ...rest, firstName, lastName };
    },
  },
};

describe(readAtCurrentVersion.name, () => {
  it('passes a payload of the current version through untouched', () => {
    const payload = { firstName: 'Ada', lastName: 'Lovelace' };
    expect(readAtCurrentVersion(SUBJECT, 3, payload, CHANGES)).toBe(payload);
  });

  it('reads a message without a version as version 1 (written before versions were stamped)', () => {
    const payload = { fullName: 'Ada' };
    expect(readAtCurrentVersion('customers.customer.get', undefined, payload, CHANGES)).toBe(payload);
  });

  it('brings the previous version to the current one through the upcaster', () => {
    expect(readAtCurrentVersion(SUBJECT, 2, { name: 'Ada Lovelace', kept: true }, CHANGES)).toEqual({ firstName: 'Ada', lastName: 'Lovelace', kept: true });
  });

  it('refuses a version older than the previous one', () => {
    expect(() => readAtCurrentVersion(SUBJECT, 1, {}, CHANGES)).toThrow(expect.objectContaining({ code: 'INVALID_REQUEST_FORMAT' }));
  });

  it('refuses a newer version than it knows as a newer release (the reader is rolled first)', () => {
    expect(() => readAtCurrentVersion(SUBJECT, 4, {}, CHANGES)).toThrow(NewerContractVersion);
    expect(() => readAtCurrentVersion('customers.customer.get', 2, {}, CHANGES)).toThrow(expect.objectContaining({ code: 'SERVICE_UNAVAILABLE' }));
  });
});
