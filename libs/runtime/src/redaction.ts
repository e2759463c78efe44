/**
 * The one redaction list: what must never reach a log line, by key name and by value shape.
 * The logger applies it to every line it writes (`createRootLogger`), so a caller that logs a
 * secret or a customer's data by mistake — or a driver that prints a failing statement's
 * parameters — still writes `[redacted]`.
 */
export const REDACTED = '[redacted]';

/**
 * Key names whose values are never logged, compared without case, `_` or `-`: an entry matches
 * a key that contains it (`customerEmail`, `x-api-key`, `ownerBirthDate`), or, with `=`, only a
 * key that equals it.
 */
export const SENSITIVE_KEYS: readonly string[] = [
  // credentials, secrets and keys
  'authorization',
  'secret',
  'password',
  'passcode',
  'otp',
  'privatekey',
  'secretkey',
  'apikey',
  'signingkey',
  'encryptionkey',
  'sealingkey',
  'accesstoken',
  'refreshtoken',
  'sessiontoken',
  '=token',
  'signature',
  'panembedurl',
  'credentialbundle',
  // account and card numbers
  'accountnumber',
  'iban',
  'clabe',
  'routingnumber',
  'sortcode',
  'cardnumber',
  '=pan',
  'cvv',
  'cvc',
  '=pin',
  // personal data
  'email',
  'phone',
  'birthdate',
  'dateofbirth',
  '=dob',
  'taxid',
  'ssn',
  // a failing statement's bound values (TypeORM's QueryFailedError.parameters)
  '=parameters',
];

const CONTAINS = SENSITIVE_KEYS.filter((key) => !key.startsWith('='));
const EQUALS = new Set(SENSITIVE_KEYS.filter((key) => key.startsWith('=')).map((key) => key.slice(1)));

export function isSensitiveKey(key: string): boolean {
  const normalised = key.toLowerCase().replace(/[^a-z0-9]/g, '');
  return EQUALS.has(normalised) || CONTAINS.some((part) => normalised.includes(part));
}

/**
 * Value shapes redacted wherever they appear in text (messages, stack traces, driver errors).
 * Cheap on purpose: they catch what has a recognisable shape; what has none (a birth date, a
 * name) is caught by its key, and statement parameters are never logged at all.
 */
const VALUE_PATTERNS: ReadonlyArray<[RegExp, string]> = [
  // HTTP credentials: `Basic <base64>`, `Bearer <token>`
  [/\b(Basic|Bearer) +[A-Za-z0-9+/=._~-]{6,}/g, `$1 ${REDACTED}`],
  // `curl -u id:secret`, `user:secret@host`
  [/(-u +['"]?[A-Za-z0-9_-]+:)[^\s'"]+/g, `$1${REDACTED}`],
  // e-mail addresses
  [/[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g, REDACTED],
  // IBANs: country, check digits, 11-30 alphanumerics (spaces allowed every 4)
  [/\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}\b/g, REDACTED],
  // account, card, CLABE, routing and phone numbers: 9+ digits, maybe grouped by spaces or
  // hyphens, maybe with a leading +; not a segment of an id (a UUID's last group) or a name
  [/(?<![\w.:/-])\+?\d(?:[ -]?\d){8,}(?![\w-])/g, REDACTED],
  // PostgreSQL's `Key (column)=(value)` and `Failing row contains (...)` details
  [/\)=\((?:[^()]|\([^()]*\))*\)/g, `)=(${REDACTED})`],
  [/Failing row contains \((?:[^()]|\([^()]*\))*\)/g, `Failing row contains (${REDACTED})`],
];

export function redactText(text: string): string {
  let result = text;
  for (const [pattern, replacement] of VALUE_PATTERNS) result = result.replace(pattern, replacement);
  return result;
}

/** A copy of `value` with sensitive keys' values replaced and every string passed through `redactText`. */
export function redactValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactText(value);
  if (value === null || typeof value !== 'object') return value;
  // Log objects are shallow; anything deeper than this is not worth walking.
  if (depth > 12) return REDACTED;
  if (Array.isArray(value)) return value.map((item) => redactValue(item, depth + 1));
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) copy[key] = isSensitiveKey(key) ? REDACTED : redactValue(item, depth + 1);
  return copy;
}

/** One serialized log line (JSON), redacted; a line that is not JSON is redacted as text. */
export function redactLogLine(line: string): string {
  const trimmed = line.endsWith('\n') ? line.slice(0, -1) : line;
  try {
    return JSON.stringify(redactValue(JSON.parse(trimmed))) + '\n';
  } catch {
    return redactText(trimmed) + '\n';
  }
}
