/** A tiny REST client over real HTTP (fetch), returning status, headers and the parsed body. */
export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  token?: string | null | undefined;
  headers?: Record<string, string>;
  /** raw body (string or bytes) instead of JSON */
  raw?: BodyInit;
}

/** One request and its response, as an optional recorder sees it (e.g. to scan every body for secrets). */
export interface RecordedExchange {
  method: string;
  path: string;
  token: string | null;
  /** the JSON request body, if any */
  requestBody: unknown;
  status: number;
  text: string;
}

export interface ClientOptions {
  record?: (exchange: RecordedExchange) => void;
}

export function apiClient(baseUrl: string, clientOptions: ClientOptions = {}) {
  async function request<T = any>(
    method: string,
    path: string,
    body?: unknown,
    opts: RequestOptions = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let payload: BodyInit | undefined = opts.raw;
    if (body !== undefined && payload === undefined) {
      headers['content-type'] ??= 'application/json';
      payload = JSON.stringify(body);
    }
    const res = await fetch(baseUrl + path, { method, headers, body: payload });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON
    }
    clientOptions.record?.({
      method,
      path,
      token: opts.token ?? null,
      requestBody: body,
      status: res.status,
      text,
    });
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  }
  return {
    baseUrl,
    request,
    get: <T = any>(path: string, opts?: RequestOptions) => request<T>('GET', path, undefined, opts),
    post: <T = any>(path: string, body?: unknown, opts?: RequestOptions) =>
      request<T>('POST', path, body, opts),
    put: <T = any>(path: string, body?: unknown, opts?: RequestOptions) =>
      request<T>('PUT', path, body, opts),
    delete: <T = any>(path: string, opts?: RequestOptions) => request<T>('DELETE', path, undefined, opts),
  };
}

export type ApiClient = ReturnType<typeof apiClient>;
