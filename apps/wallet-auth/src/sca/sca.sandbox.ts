/**
 * The sandbox's SCA magic values (sandbox tokens on a sandbox deployment only): every SMS and TOTP
 * code of an SCA ceremony (enrollment, login, quote authorization, beneficiary trust) is `123456`
 * and no SMS is sent. The 2FA reset's liveness outcome is driven by
 * `POST /sandbox/sca/factors/reset/{resetId}/liveness` (PENDING_REVIEW, LIVENESS_PASSED or REJECTED).
 */
export const SCA_SANDBOX_CODE = '123456';

export function isSandboxScaCode(code: string | null | undefined): boolean {
  return code === SCA_SANDBOX_CODE;
}
