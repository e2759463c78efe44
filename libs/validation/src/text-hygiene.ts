import { Transform } from 'class-transformer';

/**
 * Unicode bidirectional controls: embeddings and overrides (U+202A-202E), isolates (U+2066-2069)
 * and the marks (U+200E, U+200F, U+061C). In a file name they make `invoice‮fdp.exe` display as
 * `invoiceexe.pdf`; no legitimate name needs them.
 */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;

/** A file name as stored and shown: bidirectional controls removed, Unicode NFC (one spelling per name). */
export function normaliseFileName(name: string): string {
  return name.replace(BIDI_CONTROLS, '').normalize('NFC');
}

/** Contract fields holding a file name are normalised as the payload becomes its class (before the rules run). */
export function NormalisedFileName(): PropertyDecorator {
  return Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? normaliseFileName(value) : value));
}

/** A cell a spreadsheet would run as a formula (or whose leading tab/CR hides one): = + - @ TAB CR. */
const FORMULA_LEAD = /^[=+\-@\t\r]/;

/**
 * A value as a CSV export (or any spreadsheet-bound view) must write it: a formula-leading value is
 * prefixed with `'`, which spreadsheets read as "this is text". Imports store such cells as the
 * text they are; only what goes back out to a spreadsheet is neutralised.
 */
export function neutraliseFormulaCell(value: string): string {
  return FORMULA_LEAD.test(value) ? `'${value}` : value;
}
