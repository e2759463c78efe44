import { ContactChannel } from '@paykit/contracts';

/**
 * Which customers the sandbox provider asks to verify a contact channel (our rule; the spec
 * leaves it open): an email whose local part ends in `+verify`, a phone number ending in `0000`.
 */
export const CONTACT_VERIFICATION_RULES: Record<ContactChannel, (value: string) => boolean> = {
  email: (email) => /\+verify@/i.test(email),
  phone: (phone) => phone.endsWith('0000'),
};

/** The one-time code every sandbox contact verification accepts: the reference's sandbox code (wallet logins keep SPEC.md's `000000`). */
export const SANDBOX_CONTACT_CODE = '123456';
