import { RuntimeConfig } from '@paykit/runtime';

/** Embedded mode's idle poll: a guard against a missed wake-up, nothing more. */
const SINGLE_PROCESS_IDLE_POLL_MS = 60_000;

/**
 * How long a relay, scheduler or worker with nothing to do waits before looking again. Work this
 * process creates wakes it directly (a commit kicks the relay, a scheduled job arms a timer for
 * its due time), so the poll only finds what another replica left behind (an expired lease, a
 * job of a replica that died). Embedded mode is one process with no other replica, so it polls
 * rarely: an unused laptop server costs next to nothing.
 */
export function idlePollMs(config: Pick<RuntimeConfig, 'mode'>, withReplicasMs: number): number {
  return config.mode === 'embedded' ? Math.max(withReplicasMs, SINGLE_PROCESS_IDLE_POLL_MS) : withReplicasMs;
}
