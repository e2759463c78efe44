import { neutraliseFormulaCell, normaliseFileName } from './text-hygiene';

describe(normaliseFileName.name, () => {
  it.each([
    ['a right-to-left override', 'invoice\u202Efdp.exe', 'invoicefdp.exe'],
    ['every embedding, override and isolate', '\u202Aa\u202Bb\u202Cc\u202Dd\u2066e\u2067f\u2068g\u2069h', 'abcdefgh'],
    ['the directional marks', '\u200Eleft\u200Fright\u061C.pdf', 'leftright.pdf'],
    ['a decomposed accent (NFD to NFC)', 'cafe\u0301.pdf', 'caf\u00e9.pdf'],
    ['an ordinary name', 'passport 2024 (1).png', 'passport 2024 (1).png'],
  ])('removes or normalises %s', (_case, name, stored) => {
    expect(normaliseFileName(name)).toBe(stored);
  });
});

describe(neutraliseFormulaCell.name, () => {
  it.each(['=cmd|calc!A1', '+SUM(1,2)', '-2+3', '@HYPERLINK("x")', '\t=1+1', '\r=1+1'])('prefixes %j with a quote', (cell) => {
    expect(neutraliseFormulaCell(cell)).toBe(`'${cell}`);
  });

  it.each(['Ada Lovelace', '', "'already text", '1+1', ' =not leading'])('leaves %j as it is', (cell) => {
    expect(neutraliseFormulaCell(cell)).toBe(cell);
  });
});
