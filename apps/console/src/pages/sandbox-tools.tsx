import { useState } from 'preact/hooks';
import { ActionButton, LoadError, Status, useConsole, useLoad, When } from '../shared';

interface Snapshot {
  name: string;
  createdAt: string;
  rows: Record<string, number>;
}

interface Fault {
  id: string;
  target: 'OPERATION' | 'WEBHOOK_DELIVERY';
  operation?: string;
  pathPrefix?: string;
  effect: 'ERROR' | 'TIMEOUT' | 'DELAY';
  status?: number;
  delayMs?: number;
  count: number;
  remaining: number;
}

interface Replay {
  id: string;
  status: string;
  url: string;
  total: number;
  delivered: number;
  failed: number;
  items: { position: number; deliveryId: string; type: string; resourceId: string; status: string; statusCode?: number }[];
}

/**
 * The sandbox tools for test suites (docs/sandbox-tools.md): snapshots, restores and resets;
 * fault injection; webhook replay; and where an MCP client connects. Every action is one API call.
 */
export function SandboxToolsPage() {
  return (
    <>
      <SnapshotsSection />
      <FaultsSection />
      <ReplaySection />
      <McpSection />
    </>
  );
}

function SnapshotsSection() {
  const { call, notify } = useConsole();
  const snapshots = useLoad(() => call<Snapshot[]>('GET', '/sandbox/snapshots'), []);
  const [name, setName] = useState('');
  return (
    <section class="snapshots-section">
      <h2>Snapshots</h2>
      <p>The platform's whole sandbox state in every service (customers, accounts, ledger, cards, webhooks, test clock). Restore one between test runs.</p>
      <LoadError error={snapshots.error} />
      <div class="inline-form">
        <label>
          Snapshot name <input value={name} onInput={(event) => setName(event.currentTarget.value)} placeholder="start" />
        </label>
        <ActionButton
          label="Save snapshot"
          disabled={!name.trim()}
          run={async () => {
            const saved = await call<Snapshot>('POST', '/sandbox/snapshots', { name: name.trim() });
            notify(`Saved snapshot ${saved.name}`);
            await snapshots.reload();
          }}
        />
        <ActionButton
          label="Reset sandbox"
          run={async () => {
            if (!window.confirm("Delete the platform's whole sandbox state (snapshots are kept)?")) return;
            await call('POST', '/sandbox/reset');
            notify('The sandbox state was reset');
          }}
        />
      </div>
      <table class="snapshots">
        <thead>
          <tr>
            <th>Name</th>
            <th>Saved</th>
            <th>Rows</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {(snapshots.value ?? []).map((snapshot) => (
            <tr key={snapshot.name} data-name={snapshot.name}>
              <td>{snapshot.name}</td>
              <td>
                <When at={snapshot.createdAt} />
              </td>
              <td>{Object.values(snapshot.rows).reduce((total, rows) => total + rows, 0)}</td>
              <td>
                <ActionButton
                  label="Restore"
                  run={async () => {
                    await call('POST', `/sandbox/snapshots/${encodeURIComponent(snapshot.name)}/restore`);
                    notify(`Restored snapshot ${snapshot.name}`);
                  }}
                />
                <ActionButton
                  label="Delete"
                  run={async () => {
                    await call('DELETE', `/sandbox/snapshots/${encodeURIComponent(snapshot.name)}`);
                    await snapshots.reload();
                  }}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function FaultsSection() {
  const { call, notify } = useConsole();
  const faults = useLoad(() => call<Fault[]>('GET', '/sandbox/faults'), []);
  const [target, setTarget] = useState<Fault['target']>('OPERATION');
  const [operation, setOperation] = useState('POST /quotes/{quoteId}/execute');
  const [effect, setEffect] = useState<Fault['effect']>('ERROR');
  const [status, setStatus] = useState('503');
  const [delayMs, setDelayMs] = useState('1000');
  const [count, setCount] = useState('2');
  return (
    <section class="faults-section">
      <h2>Faults</h2>
      <p>
        The next calls of an operation (or under a path prefix starting with /) answer an error, time out or wait; or the next webhook deliveries fail. Then the platform recovers.
      </p>
      <LoadError error={faults.error} />
      <div class="inline-form">
        <label>
          Fault target
          <select value={target} onChange={(event) => setTarget(event.currentTarget.value as Fault['target'])}>
            <option value="OPERATION">API operation</option>
            <option value="WEBHOOK_DELIVERY">Webhook deliveries</option>
          </select>
        </label>
        {target === 'OPERATION' ? (
          <label>
            Operation or path prefix <input value={operation} onInput={(event) => setOperation(event.currentTarget.value)} size={32} />
          </label>
        ) : null}
        <label>
          Effect
          <select value={target === 'OPERATION' ? effect : 'ERROR'} disabled={target !== 'OPERATION'} onChange={(event) => setEffect(event.currentTarget.value as Fault['effect'])}>
            <option value="ERROR">Error status</option>
            <option value="TIMEOUT">Time out</option>
            <option value="DELAY">Delay</option>
          </select>
        </label>
        {effect === 'ERROR' || target !== 'OPERATION' ? (
          <label>
            Status <input value={status} onInput={(event) => setStatus(event.currentTarget.value)} inputMode="numeric" size={4} />
          </label>
        ) : (
          <label>
            Delay (ms) <input value={delayMs} onInput={(event) => setDelayMs(event.currentTarget.value)} inputMode="numeric" size={6} />
          </label>
        )}
        <label>
          Calls <input value={count} onInput={(event) => setCount(event.currentTarget.value)} inputMode="numeric" size={4} aria-label="Faulted calls" />
        </label>
        <ActionButton
          label="Add fault"
          run={async () => {
            const matcher = operation.trim().startsWith('/') ? { pathPrefix: operation.trim() } : { operation: operation.trim() };
            const chosen = target === 'OPERATION' ? effect : 'ERROR';
            await call('POST', '/sandbox/faults', {
              target,
              ...(target === 'OPERATION' ? matcher : {}),
              effect: chosen,
              ...(chosen === 'ERROR' ? { status: Number(status) } : { delayMs: Number(delayMs) }),
              count: Number(count),
            });
            notify('Fault added');
            await faults.reload();
          }}
        />
        <ActionButton label="Refresh" run={() => faults.reload()} />
      </div>
      <table class="faults">
        <thead>
          <tr>
            <th>Applies to</th>
            <th>Effect</th>
            <th>Remaining</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {(faults.value ?? []).map((fault) => (
            <tr key={fault.id} data-id={fault.id}>
              <td>{fault.target === 'WEBHOOK_DELIVERY' ? 'webhook deliveries' : (fault.operation ?? `${fault.pathPrefix}*`)}</td>
              <td>{fault.effect === 'ERROR' ? `${fault.status}` : `${fault.effect} ${fault.delayMs ?? 0} ms`}</td>
              <td class="fault-remaining">
                {fault.remaining} of {fault.count}
              </td>
              <td>
                <ActionButton
                  label="Remove"
                  run={async () => {
                    await call('DELETE', `/sandbox/faults/${encodeURIComponent(fault.id)}`);
                    await faults.reload();
                  }}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function ReplaySection() {
  const { call } = useConsole();
  const [types, setTypes] = useState('');
  const [resourceId, setResourceId] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [url, setUrl] = useState('');
  const [replay, setReplay] = useState<Replay | undefined>(undefined);
  const iso = (local: string) => (local ? new Date(local).toISOString() : undefined);
  return (
    <section class="replay-section">
      <h2>Webhook replay</h2>
      <p>Sends the platform's past webhooks again, in their original order, each marked with the X-Paykit-Replay header. Empty fields: no filter.</p>
      <div class="inline-form">
        <label>
          Types <input value={types} onInput={(event) => setTypes(event.currentTarget.value)} placeholder="CUSTOMER.KYC_PENDING, ..." />
        </label>
        <label>
          Resource id <input value={resourceId} onInput={(event) => setResourceId(event.currentTarget.value)} />
        </label>
        <label>
          From <input type="datetime-local" value={from} onInput={(event) => setFrom(event.currentTarget.value)} />
        </label>
        <label>
          To <input type="datetime-local" value={to} onInput={(event) => setTo(event.currentTarget.value)} />
        </label>
        <label>
          Send to <input value={url} onInput={(event) => setUrl(event.currentTarget.value)} placeholder="the webhook endpoint" aria-label="Replay URL" />
        </label>
        <ActionButton
          label="Replay webhooks"
          run={async () => {
            const list = types
              .split(',')
              .map((type) => type.trim())
              .filter(Boolean);
            setReplay(
              await call<Replay>('POST', '/sandbox/webhooks/replay', {
                ...(list.length ? { types: list } : {}),
                ...(resourceId.trim() ? { resourceId: resourceId.trim() } : {}),
                ...(from ? { from: iso(from) } : {}),
                ...(to ? { to: iso(to) } : {}),
                ...(url.trim() ? { url: url.trim() } : {}),
              }),
            );
          }}
        />
        {replay ? (
          <ActionButton label="Refresh replay" run={async () => setReplay(await call<Replay>('GET', `/sandbox/webhooks/replays/${encodeURIComponent(replay.id)}`))} />
        ) : null}
      </div>
      {replay ? (
        <div class="replay" data-id={replay.id}>
          <p>
            <Status value={replay.status} /> <span class="replay-counts">{`${replay.delivered} delivered, ${replay.failed} failed of ${replay.total}`}</span> to {replay.url}
          </p>
          <table class="replay-items">
            <thead>
              <tr>
                <th>#</th>
                <th>Type</th>
                <th>Resource</th>
                <th>Status</th>
              </tr>
            </thead>
            <tbody>
              {replay.items.map((item) => (
                <tr key={item.position} data-delivery-id={item.deliveryId}>
                  <td>{item.position}</td>
                  <td>{item.type}</td>
                  <td>{item.resourceId}</td>
                  <td>
                    <Status value={item.status} /> {item.statusCode ?? ''}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}

function McpSection() {
  const { session } = useConsole();
  const url = `${location.origin}${session.baseUrl}/sandbox/mcp`;
  const config = JSON.stringify({ mcpServers: { paykit: { type: 'http', url, headers: { Authorization: `Basic <base64 of ${session.tokenId}:<secret>>` } } } }, null, 2);
  return (
    <section class="mcp-section">
      <h2>MCP server</h2>
      <p>
        AI coding tools connect to <code class="mcp-url">{url}</code> (Streamable HTTP, this platform's Basic credentials), or start <code>npm --silent run mcp</code> over stdio.
        Tools: search, describe_operation, execute, run_simulator, advance_clock, list_webhook_deliveries.
      </p>
      <pre class="mcp-config">{config}</pre>
    </section>
  );
}
