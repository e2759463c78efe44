import { SANDBOX_CARD_ISSUANCE_SUFFIXES } from '@paykit/contracts';
import { ISSUANCE_OUTCOMES, isSandboxIneligibleFundingSource, sandboxIssuanceOutcome, sandboxLast4 } from './cards.sandbox';

const CUSTOMER = 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69';

describe('cards sandbox tables', () => {
  describe(sandboxIssuanceOutcome.name, () => {
    it.each([
      ['card-001', { state: 'PROCESSING' }],
      ['card-002', { state: 'CLOSED', stateReason: 'ISSUER_REJECTED' }],
      ['card-005', { state: 'PROCESSING', activateAfterMs: 30_000 }],
      ['card-004', { state: 'ACTIVE' }],
      ['card-123', { state: 'ACTIVE' }],
    ])('platformCardId %s -> %j', (platformCardId, outcome) => {
      expect(sandboxIssuanceOutcome(platformCardId, CUSTOMER)).toEqual(outcome);
    });

    it('has exactly the suffixes that generated customer ids avoid', () => {
      expect(new Set(Object.keys(ISSUANCE_OUTCOMES))).toEqual(SANDBOX_CARD_ISSUANCE_SUFFIXES);
    });

    it('falls back to the cardholderId suffix when platformCardId is omitted', () => {
      expect(sandboxIssuanceOutcome(undefined, 'Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5002')).toEqual({ state: 'CLOSED', stateReason: 'ISSUER_REJECTED' });
      expect(sandboxIssuanceOutcome(undefined, CUSTOMER)).toEqual({ state: 'ACTIVE' });
    });
  });

  describe(sandboxLast4.name, () => {
    it.each([
      ['card-001', '0001'],
      ['card-123', '0123'],
      ['card-a1b', '0718'],
      ['x', '0000'],
    ])('%s -> %s', (platformCardId, last4) => {
      expect(sandboxLast4(platformCardId, CUSTOMER)).toBe(last4);
      expect(sandboxLast4(platformCardId, CUSTOMER)).toBe(sandboxLast4(platformCardId, 'Customer:other'));
    });

    // A suffix cut through a surrogate pair, or holding digits that are not ASCII, still gives four
    // ASCII digits (the card table's check): these once answered POST /cards with a 500.
    it.each([
      ['an emoji', 'card-\u{1F600}'],
      ['a flag sequence', 'card-\u{1F1EC}\u{1F1E7}'],
      ['the last code point', 'card-\u{10FFFF}'],
      ['mathematical digits', 'card-\u{1D7CF}\u{1D7D0}\u{1D7D1}'],
      ['fullwidth digits', 'card-\uFF11\uFF12\uFF13'],
      ['Arabic-Indic digits', 'card-\u0661\u0662\u0663'],
      ['a combining sequence', 'card-e\u0301\u0301'],
    ])('%s in platformCardId gives four ASCII digits', (_, platformCardId) => {
      expect(sandboxLast4(platformCardId, CUSTOMER)).toMatch(/^[0-9]{4}$/);
    });
  });

  describe(isSandboxIneligibleFundingSource.name, () => {
    it.each([
      ['002', true],
      ['003', true],
      ['001', false],
      ['004', false],
      ['a69', false],
    ])('account suffix %s ineligible: %s', (suffix, ineligible) => {
      expect(isSandboxIneligibleFundingSource(`InternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5${suffix}`)).toBe(ineligible);
    });
  });
});
