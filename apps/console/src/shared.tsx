import { createContext } from 'preact';
import { useCallback, useContext, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, call, Session } from './api';

export interface ConsoleContextValue {
  session: Session;
  /** Shows the error in the banner (an API error envelope in full). */
  report: (error: unknown) => void;
  /** Shows a short confirmation in the banner. */
  notify: (message: string) => void;
}

export const ConsoleContext = createContext<ConsoleContextValue | undefined>(undefined);

export function useConsole(): ConsoleContextValue & { call: <T>(method: string, path: string, body?: unknown) => Promise<T> } {
  const context = useContext(ConsoleContext);
  if (!context) throw new Error('useConsole outside the console');
  return { ...context, call: <T,>(method: string, path: string, body?: unknown) => call<T>(context.session, method, path, body) };
}

/** A text field of a submitted form ('' when absent). */
export function field(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
}

export function describeError(error: unknown): string {
  return error instanceof ApiError ? error.describe() : error instanceof Error ? error.message : String(error);
}

/**
 * Loads `load` at once and again whenever `deps` change; with `everyMs`, again every so often
 * while the page is visible (a hidden tab makes no requests).
 */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[], everyMs?: number): { value: T | undefined; error: unknown; reload: () => Promise<void> } {
  const [value, setValue] = useState<T | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const latest = useRef(load);
  latest.current = load;
  const reload = useCallback(async () => {
    try {
      setValue(await latest.current());
      setError(undefined);
    } catch (failure) {
      setError(failure);
    }
  }, []);
  useEffect(() => {
    void reload();
  }, deps);
  useEffect(() => {
    if (!everyMs) return;
    let timer: number | undefined;
    const arm = () => {
      window.clearInterval(timer);
      timer = document.visibilityState === 'visible' ? window.setInterval(() => void reload(), everyMs) : undefined;
      if (document.visibilityState === 'visible') void reload();
    };
    arm();
    document.addEventListener('visibilitychange', arm);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', arm);
    };
  }, [everyMs]);
  return { value, error, reload };
}

/** A button that runs an API action, disabled while it runs; failures go to the banner. */
export function ActionButton(props: { label: string; run: () => Promise<unknown>; disabled?: boolean; name?: string }) {
  const { report } = useConsole();
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      name={props.name}
      disabled={busy || props.disabled}
      onClick={async () => {
        setBusy(true);
        try {
          await props.run();
        } catch (error) {
          report(error);
        } finally {
          setBusy(false);
        }
      }}
    >
      {props.label}
    </button>
  );
}

export function LoadError({ error }: { error: unknown }) {
  return error ? (
    <p class="load-error" role="alert">
      {describeError(error)}
    </p>
  ) : null;
}

export function Status({ value }: { value: string | undefined }) {
  return value ? <span class={`status status-${value.toLowerCase()}`}>{value}</span> : null;
}

export function When({ at }: { at: string | undefined }) {
  return at ? <time dateTime={at}>{new Date(at).toLocaleString()}</time> : null;
}
