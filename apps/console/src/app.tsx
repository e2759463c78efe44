import { useEffect, useState } from 'preact/hooks';
import { call, discoverBaseUrl, loadSession, saveSession, Session } from './api';
import { ConsoleContext, describeError, field } from './shared';
import { CardsPage } from './pages/cards';
import { ClockPage } from './pages/clock';
import { CustomersPage } from './pages/customers';
import { ExternalAccountsPage } from './pages/external-accounts';
import { RequestLogPage } from './pages/request-log';
import { SandboxToolsPage } from './pages/sandbox-tools';
import { TransactionsPage } from './pages/transactions';
import { WebhooksPage } from './pages/webhooks';

const PAGES = [
  { id: 'customers', title: 'Customers', component: CustomersPage },
  { id: 'external-accounts', title: 'External accounts', component: ExternalAccountsPage },
  { id: 'cards', title: 'Cards', component: CardsPage },
  { id: 'transactions', title: 'Transactions', component: TransactionsPage },
  { id: 'webhooks', title: 'Webhooks', component: WebhooksPage },
  { id: 'clock', title: 'Test clock', component: ClockPage },
  { id: 'request-log', title: 'Request log', component: RequestLogPage },
  { id: 'sandbox-tools', title: 'Sandbox tools', component: SandboxToolsPage },
] as const;

type Banner = { kind: 'error' | 'notice'; text: string } | undefined;

function currentPage(): string {
  const id = location.hash.replace(/^#\/?/, '');
  return PAGES.some((page) => page.id === id) ? id : 'customers';
}

export function App() {
  const [session, setSession] = useState<Session | undefined>(loadSession());
  const [pageId, setPageId] = useState(currentPage());
  const [banner, setBanner] = useState<Banner>(undefined);

  useEffect(() => {
    const onHash = () => setPageId(currentPage());
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  if (!session) {
    return (
      <SignIn
        onSignedIn={(signedIn) => {
          saveSession(signedIn);
          setSession(signedIn);
        }}
      />
    );
  }
  const page = PAGES.find((candidate) => candidate.id === pageId)!;
  const Page = page.component;
  return (
    <ConsoleContext.Provider
      value={{
        session,
        report: (error) => setBanner({ kind: 'error', text: describeError(error) }),
        notify: (text) => setBanner({ kind: 'notice', text }),
      }}
    >
      <header>
        <strong>Paykit sandbox</strong>
        <nav>
          {PAGES.map((candidate) => (
            <a key={candidate.id} href={`#/${candidate.id}`} aria-current={candidate.id === pageId ? 'page' : undefined}>
              {candidate.title}
            </a>
          ))}
        </nav>
        <span class="token">{session.tokenId}</span>
        <button
          type="button"
          onClick={() => {
            saveSession(undefined);
            setSession(undefined);
          }}
        >
          Sign out
        </button>
      </header>
      {banner ? (
        <div class={`banner banner-${banner.kind}`} role={banner.kind === 'error' ? 'alert' : 'status'}>
          <span>{banner.text}</span>
          <button type="button" aria-label="Dismiss" onClick={() => setBanner(undefined)}>
            ×
          </button>
        </div>
      ) : null}
      <main>
        <h1>{page.title}</h1>
        <Page key={page.id} />
      </main>
    </ConsoleContext.Provider>
  );
}

/** Token id and secret, checked with one read before they are kept (sessionStorage only). */
function SignIn({ onSignedIn }: { onSignedIn: (session: Session) => void }) {
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  return (
    <form
      class="sign-in"
      onSubmit={async (event) => {
        event.preventDefault();
        const form = new FormData(event.currentTarget);
        setBusy(true);
        try {
          const session: Session = { tokenId: field(form, 'tokenId').trim(), secret: field(form, 'secret').trim(), baseUrl: await discoverBaseUrl() };
          await call(session, 'GET', '/sandbox/request-log?limit=1');
          onSignedIn(session);
        } catch (failure) {
          setError(describeError(failure));
        } finally {
          setBusy(false);
        }
      }}
    >
      <h1>Paykit sandbox console</h1>
      <p>Sign in with a sandbox API token (the id and secret printed at the first start, or one from POST /tokens).</p>
      <label>
        Token id
        <input name="tokenId" autocomplete="username" required />
      </label>
      <label>
        Secret
        <input name="secret" type="password" autocomplete="current-password" required />
      </label>
      <button type="submit" disabled={busy}>
        Sign in
      </button>
      {error ? (
        <p class="load-error" role="alert">
          {error}
        </p>
      ) : null}
    </form>
  );
}
