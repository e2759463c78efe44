import { sandboxOutcome, sandboxSuffix } from './sandbox-suffix';

describe(sandboxSuffix.name, () => {
  it.each([
    ['Customer:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5002', '002'],
    ['SHOP 005', '005'],
    ['ab', 'ab'],
  ])('%s ends in %s', (value, suffix) => expect(sandboxSuffix(value)).toBe(suffix));
});

describe(sandboxOutcome.name, () => {
  const table = { '002': 'DECLINED', '005': 'DELAYED' };

  it.each([
    ['SHOP 002', 'DECLINED'],
    ['SHOP 005', 'DELAYED'],
    ['SHOP 003', 'APPROVED'],
    ['', 'APPROVED'],
  ])('%s -> %s', (value, outcome) => expect(sandboxOutcome(table, value, 'APPROVED')).toBe(outcome));
});
