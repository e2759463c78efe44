import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadExternalAccountsConfig } from './external-accounts-config';

describe(loadExternalAccountsConfig.name, () => {
  const dir = mkdtempSync(join(tmpdir(), 'discovery-'));
  const file = (name: string, content: string) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };

  it('keeps the seeded lists when no file is given', () => {
    expect(loadExternalAccountsConfig({})).toEqual({ discoveryEntries: undefined });
  });

  it("reads an operator's lists from DISCOVERY_DATA_FILE", () => {
    const entries = [{ bankName: 'Own Bank', displayName: 'Own Bank Ltd', country: 'PH', currency: 'PHP' }];
    expect(loadExternalAccountsConfig({ DISCOVERY_DATA_FILE: file('ok.json', JSON.stringify(entries)) })).toEqual({ discoveryEntries: entries });
  });

  it.each([
    ['not JSON', '{'],
    ['not an array', '{}'],
    ['an entry without a currency', JSON.stringify([{ bankName: 'B', displayName: 'B', country: 'PH' }])],
  ])('stops the start naming the variable for %s', (_, content) => {
    expect(() => loadExternalAccountsConfig({ DISCOVERY_DATA_FILE: file('bad.json', content) })).toThrow(/DISCOVERY_DATA_FILE/);
  });
});
