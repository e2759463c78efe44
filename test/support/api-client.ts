export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface Credentials {
  tokenId: string;
  secret: string;
}

export interface RequestOptions {
  auth?: Credentials | null;
  headers?: Record<string, string>;
  /** Sent as-is instead of JSON-encoding `body`. */
  raw?: string | Buffer;
}

/** A thin HTTP client for the API under test: base URL, Basic auth, JSON in and out. */
export class ApiClient {
  constructor(
    readonly baseUrl: string,
    readonly credentials?: Credentials,
  ) {}

  withCredentials(credentials: Credentials): ApiClient {
    return new ApiClient(this.baseUrl, credentials);
  }

  get<T = any>(path: string, options?: RequestOptions): Promise<ApiResponse<T>> {
    return this.request<T>('GET', path, undefined, options);
  }
  post<T = any>(path: string, body?: unknown, options?: RequestOptions): Promise<ApiResponse<T>> {
    return this.request<T>('POST', path, body, options);
  }
  patch<T = any>(path: string, body?: unknown, options?: RequestOptions): Promise<ApiResponse<T>> {
    return this.request<T>('PATCH', path, body, options);
  }
  delete<T = any>(path: string, options?: RequestOptions): Promise<ApiResponse<T>> {
    return this.request<T>('DELETE', path, undefined, options);
  }

  async request<T>(method: string, path: string, body?: unknown, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    const auth = options.auth === undefined ? this.credentials : options.auth;
    if (auth) headers.authorization = `Basic ${Buffer.from(`${auth.tokenId}:${auth.secret}`).toString('base64')}`;
    let payload: string | Buffer | undefined = options.raw;
    if (payload === undefined && body !== undefined) payload = JSON.stringify(body);
    if (payload !== undefined) headers['content-type'] ??= 'application/json';
    const response = await fetch(this.baseUrl + path, { method, headers, body: typeof payload === 'string' || payload === undefined ? payload : new Uint8Array(payload) });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // Not JSON: keep the text.
    }
    return { status: response.status, headers: response.headers, body: parsed as T };
  }
}
