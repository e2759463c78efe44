import { useState } from 'preact/hooks';
import { Page } from '../api';
import { LoadError, useConsole, useLoad, When } from '../shared';

interface RequestLogEntry {
  id: string;
  method: string;
  route?: string;
  path: string;
  status: number;
  errorCode?: string;
  durationMs: number;
  requestId: string;
  createdAt: string;
}

/** The platform's own latest requests (`GET /sandbox/request-log`), newest first, a page at a time. */
export function RequestLogPage() {
  const { call, report } = useConsole();
  const first = useLoad(() => call<Page<RequestLogEntry>>('GET', '/sandbox/request-log?limit=50'), []);
  const [more, setMore] = useState<{ entries: RequestLogEntry[]; cursor?: string }>({ entries: [] });
  const cursor = more.cursor ?? first.value?.nextCursor;
  const hasMore = more.cursor !== undefined || (more.entries.length === 0 && first.value?.hasMore);
  const entries = [...(first.value?.data ?? []), ...more.entries];
  return (
    <>
      <button
        type="button"
        onClick={async () => {
          setMore({ entries: [] });
          await first.reload();
        }}
      >
        Refresh
      </button>
      <LoadError error={first.error} />
      <table class="request-log">
        <thead>
          <tr>
            <th>Time</th>
            <th>Method</th>
            <th>Path</th>
            <th>Status</th>
            <th>Error code</th>
            <th>Duration</th>
            <th>Request id</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <tr key={entry.id} data-request-id={entry.requestId} class={entry.status >= 400 ? 'failed' : undefined}>
              <td>
                <When at={entry.createdAt} />
              </td>
              <td>{entry.method}</td>
              <td title={entry.route}>{entry.path}</td>
              <td>{entry.status}</td>
              <td>{entry.errorCode}</td>
              <td>{entry.durationMs} ms</td>
              <td class="id">{entry.requestId}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {hasMore && cursor ? (
        <button
          type="button"
          onClick={async () => {
            try {
              const page = await call<Page<RequestLogEntry>>('GET', `/sandbox/request-log?limit=50&cursor=${encodeURIComponent(cursor)}`);
              setMore({ entries: [...more.entries, ...page.data], cursor: page.hasMore ? page.nextCursor : undefined });
            } catch (error) {
              report(error);
            }
          }}
        >
          Older
        </button>
      ) : null}
    </>
  );
}
