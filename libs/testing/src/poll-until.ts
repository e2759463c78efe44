/**
 * Polls for an outcome, never a fixed wait: the check runs every 10 ms until it holds, so a test
 * waits exactly as long as the machine takes, up to `timeoutMs`.
 */
export async function pollUntil(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
