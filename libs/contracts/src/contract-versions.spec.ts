import { CUSTOMERS_SUBJECTS } from './customers';
import { CONTRACT_CHANGES } from './contract-versions';

function upcast(subject: string, previous: unknown): unknown {
  const change = CONTRACT_CHANGES[subject as keyof typeof CONTRACT_CHANGES];
  if (!change) throw new Error(`${subject} has no upcaster`);
  return change.fromPrevious(previous);
}

describe('CONTRACT_CHANGES', () => {
  describe('customers contracts at version 2', () => {
    it.each([
      [{ purposeOfAccount: 'PAYROLL' }, { purposeOfAccount: 'EMPLOYEE_PAYOUTS' }],
      [{ purposeOfAccount: 'REMITTANCES' }, { purposeOfAccount: 'OTHER', purposeOfAccountOtherDescription: 'REMITTANCES' }],
      [{ purposeOfAccount: 'P2P_TRANSFERS' }, { purposeOfAccount: 'P2P_TRANSFERS' }],
      [{ annualIncomeRange: 'RANGE_0_25K' }, { annualIncomeRange: 'UNDER_50K' }],
      [{ annualIncomeRange: 'RANGE_OVER_1M' }, { annualIncomeRange: 'OVER_1M' }],
      [{ sourceOfWealthCategories: ['PENSION', 'SALE_OF_PROPERTY', 'SALARY'] }, { sourceOfWealthCategories: ['RETIREMENT', 'PROPERTY_SALE', 'SALARY'] }],
    ])('a customer create with %j reads as %j', (previous, current) => {
      expect(upcast(CUSTOMERS_SUBJECTS.createCustomer, { customerType: 'INDIVIDUAL', ...previous })).toEqual({ customerType: 'INDIVIDUAL', ...current });
    });

    it('maps the due diligence values of an update under `changes`', () => {
      expect(upcast(CUSTOMERS_SUBJECTS.updateCustomer, { customerId: 'Customer:1', changes: { annualIncomeRange: 'RANGE_25K_50K' } })).toEqual({
        customerId: 'Customer:1',
        changes: { annualIncomeRange: 'UNDER_50K' },
      });
    });

    it('maps beneficial owner roles', () => {
      expect(upcast(CUSTOMERS_SUBJECTS.createBeneficialOwner, { roles: ['BENEFICIAL_OWNER', 'OFFICER', 'DIRECTOR'] })).toEqual({ roles: ['UBO', 'COMPANY_OFFICER', 'DIRECTOR'] });
    });

    it.each([
      [
        { customerId: 'Customer:1', documentType: 'PASSPORT' },
        { documentHolder: 'Customer:1', documentType: 'PASSPORT' },
      ],
      [
        { customerId: 'Customer:1', beneficialOwnerId: 'BeneficialOwner:2', documentType: 'PASSPORT' },
        { documentHolder: 'BeneficialOwner:2', documentType: 'PASSPORT' },
      ],
    ])('a document upload %j reads as %j', (previous, current) => {
      expect(upcast(CUSTOMERS_SUBJECTS.startDocumentUpload, previous)).toEqual(current);
    });

    it('leaves what is not an object alone', () => {
      expect(upcast(CUSTOMERS_SUBJECTS.createCustomer, 'x')).toBe('x');
    });
  });
});
