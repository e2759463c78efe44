/**
 * Text that is valid Unicode but not what code written for ASCII expects: characters outside the
 * Basic Multilingual Plane (two UTF-16 units each, so a cut by length can split one), sequences
 * of several code points that draw as one character, digits that `\d` does not match, and a
 * length past any field's limit. The fuzz puts one in every string field and path parameter;
 * the specs of the defects they found reuse the rows.
 */
export const UNICODE_SAMPLES: ReadonlyArray<readonly [label: string, text: string]> = [
  ['an emoji', '\u{1F600}'],
  ['a flag sequence', '\u{1F1EC}\u{1F1E7}'],
  ['the last code point', '\u{10FFFF}'],
  ['mathematical digits', '\u{1D7CF}\u{1D7D0}\u{1D7D1}\u{1D7D2}\u{1D7D3}\u{1D7D4}\u{1D7D5}\u{1D7D6}\u{1D7D7}'],
  ['fullwidth digits', '\uFF11\uFF12\uFF13\uFF14\uFF15\uFF16\uFF17\uFF18\uFF19'],
  ['Arabic-Indic digits', '\u0661\u0662\u0663\u0664\u0665\u0666\u0667\u0668\u0669'],
  ['a combining sequence', 'e\u0301\u0302\u0303'],
  ['a joined emoji sequence', '\u{1F469}\u200D\u{1F469}\u200D\u{1F467}'],
  ['a very long string', '\u{1F600}'.repeat(5_000)],
];

/** The samples a short identifier can hold (the very long one is refused by length, as it should be). */
export const SHORT_UNICODE_SAMPLES = UNICODE_SAMPLES.filter(([, text]) => text.length < 100);
