import { useState } from 'preact/hooks';
import { ApiError } from '../api';
import { ActionButton, LoadError, useConsole, useLoad } from '../shared';

interface SandboxClock {
  now: string;
  advancedSeconds: number;
}

/** The platform's sandbox clock: advancing it makes every delayed sandbox outcome due within it happen now. */
export function ClockPage() {
  const { call, notify } = useConsole();
  const clock = useLoad(() => call<SandboxClock>('GET', '/sandbox/clock'), []);
  const [seconds, setSeconds] = useState('60');
  const missing = clock.error instanceof ApiError && clock.error.status === 404;
  return (
    <>
      {missing ? (
        <p class="load-error" role="alert">
          This server has no test clock (GET /sandbox/clock answered 404): it is older than the test clocks, or a production deployment.
        </p>
      ) : (
        <LoadError error={clock.error} />
      )}
      <dl class="clock">
        <dt>Sandbox time</dt>
        <dd class="clock-now">{clock.value ? new Date(clock.value.now).toISOString() : ''}</dd>
        <dt>Advanced by</dt>
        <dd class="clock-advanced">{clock.value ? `${clock.value.advancedSeconds} s` : ''}</dd>
      </dl>
      <div class="inline-form">
        <label>
          Seconds <input value={seconds} onInput={(event) => setSeconds(event.currentTarget.value)} inputMode="numeric" aria-label="Seconds to advance" />
        </label>
        <ActionButton
          label="Advance clock"
          run={async () => {
            const advanced = await call<SandboxClock>('POST', '/sandbox/clock/advance', { seconds: Number(seconds) });
            notify(`Sandbox time is now ${advanced.now}`);
            await clock.reload();
          }}
        />
      </div>
    </>
  );
}
