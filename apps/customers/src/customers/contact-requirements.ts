import { ContactChannel, ContactVerification } from '@paykit/contracts';
import { CONTACT_VERIFICATION_RULES } from '../contact-verification/contact-verification.sandbox';

/**
 * The contactVerification a customer should carry for its current email and phone: only the
 * channels its provider requires (sandbox rule), keeping VERIFIED where the value is unchanged.
 */
export function contactVerificationFor(
  sandbox: boolean,
  values: Record<ContactChannel, string | null>,
  previous: { verification: ContactVerification | null; values: Record<ContactChannel, string | null> } | undefined,
): ContactVerification | null {
  if (!sandbox) return null;
  const result: ContactVerification = {};
  for (const channel of ['email', 'phone'] as const) {
    const value = values[channel];
    if (value === null || !CONTACT_VERIFICATION_RULES[channel](value)) continue;
    const unchanged = previous && previous.values[channel] === value;
    result[channel] = unchanged && previous.verification?.[channel] === 'VERIFIED' ? 'VERIFIED' : 'PENDING';
  }
  return Object.keys(result).length > 0 ? result : null;
}
