import { assertBalanced, JournalEntryInput, UnbalancedEntryError } from './ledger-entry';

const usd = (id: string, checked = true) => ({ id, currency: 'USD', checked });

function entry(lines: JournalEntryInput['lines']): JournalEntryInput {
  return { platformId: 'p', kind: 'SANDBOX_FUNDING', referenceId: 'r', currency: 'USD', lines };
}

describe(assertBalanced.name, () => {
  it('accepts two or more non-zero postings in the entry currency summing to zero', () => {
    expect(() =>
      assertBalanced(
        entry([
          { account: usd('a', false), amount: -5n },
          { account: usd('b'), amount: 5n },
        ]),
      ),
    ).not.toThrow();
    expect(() =>
      assertBalanced(
        entry([
          { account: usd('a', false), amount: -5n },
          { account: usd('b'), amount: 2n },
          { account: usd('c'), amount: 3n },
        ]),
      ),
    ).not.toThrow();
  });

  it.each([
    ['a single posting', [{ account: usd('a'), amount: 0n }]],
    [
      'postings that do not sum to zero',
      [
        { account: usd('a'), amount: -5n },
        { account: usd('b'), amount: 4n },
      ],
    ],
    [
      'a zero posting',
      [
        { account: usd('a'), amount: 0n },
        { account: usd('b'), amount: 0n },
      ],
    ],
    [
      'a posting in another currency',
      [
        { account: usd('a'), amount: -5n },
        { account: { id: 'b', currency: 'EUR', checked: true }, amount: 5n },
      ],
    ],
  ])('refuses %s', (_, lines) => {
    expect(() => assertBalanced(entry(lines))).toThrow(UnbalancedEntryError);
  });
});
