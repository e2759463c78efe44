/**
 * The console's only way to the server: the public API (`{baseUrl}/...`, BasicAuth with the
 * token the developer signed in with). Nothing goes around it.
 */
export interface Session {
  tokenId: string;
  secret: string;
  /** `/2025-10-13` or `/<API_PREFIX>/2025-10-13`, as `GET /` tells. */
  baseUrl: string;
}

export interface Page<T> {
  data: T[];
  hasMore: boolean;
  nextCursor?: string;
}

/** The API's error envelope, as thrown by `call`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: { errors?: Array<{ field: string; message: string }> } & Record<string, unknown>,
  ) {
    super(message);
  }

  /** One line for a banner: status, code, message and every invalid field. */
  describe(): string {
    const fields = (this.details?.errors ?? []).map((error) => `${error.field}: ${error.message}`);
    return [`${this.status} ${this.code}: ${this.message}`, ...fields].join(' · ');
  }
}

const SESSION_KEY = 'paykit.console.session';

/** Kept in sessionStorage: gone when the tab closes, never written to disk by the console. */
export function loadSession(): Session | undefined {
  const stored = sessionStorage.getItem(SESSION_KEY);
  return stored ? (JSON.parse(stored) as Session) : undefined;
}

export function saveSession(session: Session | undefined): void {
  if (session) sessionStorage.setItem(SESSION_KEY, JSON.stringify(session));
  else sessionStorage.removeItem(SESSION_KEY);
}

/** Where the versioned API lives on this server (`GET /`, which needs no credentials). */
export async function discoverBaseUrl(): Promise<string> {
  const response = await fetch('/', { headers: { accept: 'application/json' } });
  const index = (await response.json()) as { baseUrl?: string };
  return index.baseUrl ?? '/2025-10-13';
}

export async function call<T>(session: Session, method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { authorization: `Basic ${btoa(`${session.tokenId}:${session.secret}`)}`, accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${session.baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  const parsed: unknown = text ? JSON.parse(text) : undefined;
  if (!response.ok) {
    const envelope = (parsed ?? {}) as { code?: string; message?: string; details?: ApiError['details'] };
    throw new ApiError(response.status, envelope.code ?? 'ERROR', envelope.message ?? response.statusText, envelope.details);
  }
  return parsed as T;
}

export function query(params: Record<string, string | number | undefined>): string {
  const entries = Object.entries(params).filter((entry): entry is [string, string | number] => entry[1] !== undefined && entry[1] !== '');
  return entries.length === 0 ? '' : `?${entries.map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`).join('&')}`;
}

/** An amount in minor units with its currency's decimals, e.g. 1050 USD -> "10.50 USD". */
export function money(amount: { amount: number; currency: { code: string; decimals?: number } } | undefined): string {
  if (!amount) return '';
  const decimals = amount.currency.decimals ?? 2;
  return `${(amount.amount / 10 ** decimals).toFixed(decimals)} ${amount.currency.code}`;
}
