import { REDACTED } from '@paykit/runtime';

/**
 * The one list of URL parts that must never reach a log line or the request log: path
 * parameters whose value alone is a credential (it redeems, claims or reveals something), and
 * query parameters that carry one or an account number. Templates are written as the API
 * document writes them (the pages outside it too); the log redaction spec walks the served
 * document and sends a request through every operation this list names.
 */
export const CREDENTIAL_PATH_PARAMETERS: readonly string[] = [
  // A device code alone redeems the agent's access token.
  '/agents/device-codes/{code}',
  // An invitation code alone claims the invitation.
  '/invitations/{invitationCode}',
  // The card-reveal page's token shows a card's number; the hosted KYC link's token is the customer's session.
  '/card-reveal/{token}',
  '/kyc/{token}',
];

export const CREDENTIAL_QUERY_PARAMETERS: readonly string[] = ['accountIdentifier', 'senderAccountIdentifier', 'receiverAccountIdentifier'];

/** Each template as a pattern: its text up to the parameter, then the segment the parameter fills. */
const PATH_PATTERNS = CREDENTIAL_PATH_PARAMETERS.map((template) => {
  const prefix = template.slice(0, template.indexOf('{'));
  return new RegExp(`(${prefix.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')})[^/?#]+`, 'g');
});
const QUERY_NAMES = new Set(CREDENTIAL_QUERY_PARAMETERS);

/** A request's URL as a log line may hold it: credential path segments and query values replaced. */
export function loggableUrl(url: string): string {
  const mark = url.indexOf('?');
  let path = mark < 0 ? url : url.slice(0, mark);
  for (const pattern of PATH_PATTERNS) path = path.replace(pattern, `$1${REDACTED}`);
  if (mark < 0) return path;
  const query = url
    .slice(mark + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals < 0 ? pair : pair.slice(0, equals);
      return equals >= 0 && QUERY_NAMES.has(safeDecode(name)) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
  return `${path}?${query}`;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}
