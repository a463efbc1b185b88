/**
 * The console's HTTP client: openapi-fetch typed by the service's own OpenAPI document (./openapi.d.ts, generated
 * by web/scripts/api-types.ts), so a call that no longer fits the service fails the type check.
 *
 * Every call carries `X-Console-Request: 1`: the service then accepts the HttpOnly session cookie it set at
 * sign-in (src/http/console-session.ts); the token itself never reaches a script. `unwrap` turns an error answer
 * into an ApiError with the service's Chinese message; a 401 also tells the session (it sends the user to the
 * login page).
 */
import createClient from 'openapi-fetch';
import type { paths } from './openapi';

export const CONSOLE_HEADERS = { 'X-Console-Request': '1' } as const;

export const api = createClient<paths>({ baseUrl: '', headers: CONSOLE_HEADERS });

/** An error answer of the service: `{error: {code, message, details?}}` with its HTTP status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

let onUnauthorized: () => void = () => {};
/** What to do when the service answers 401 (set by the session). */
export const setUnauthorizedHandler = (fn: () => void) => {
  onUnauthorized = fn;
};

function toApiError(status: number, error: unknown): ApiError {
  const e = (error as { error?: { code?: string; message?: string; details?: unknown } } | undefined)?.error;
  if (e?.message) return new ApiError(status, e.code ?? 'ERROR', e.message, e.details);
  return new ApiError(status, 'NETWORK', status ? `服务返回 ${status}，请稍后重试` : '无法连接服务，请检查网络');
}

/** The data of a successful answer; throws ApiError otherwise (module docstring). */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let r: { data?: T; error?: unknown; response: Response };
  try {
    r = await call;
  } catch {
    throw new ApiError(0, 'NETWORK', '无法连接服务，请检查网络后重试');
  }
  if (r.response.ok) return r.data as T;
  const err = toApiError(r.response.status, r.error);
  if (r.response.status === 401) onUnauthorized();
  throw err;
}

/** A multipart body with `file` in field `file` (the service's spreadsheet uploads). */
export function fileForm(file: File): FormData {
  const fd = new FormData();
  fd.append('file', file);
  return fd;
}

/** GET of a file (spreadsheet export) as a Blob with the file name the service gives (Content-Disposition). */
export async function download(path: string, fallbackName: string): Promise<{ blob: Blob; name: string }> {
  let res: Response;
  try {
    res = await fetch(path, { headers: CONSOLE_HEADERS });
  } catch {
    throw new ApiError(0, 'NETWORK', '无法连接服务，请检查网络后重试');
  }
  if (!res.ok) {
    const body = await res.json().catch(() => undefined);
    const err = toApiError(res.status, body);
    if (res.status === 401) onUnauthorized();
    throw err;
  }
  const disposition = res.headers.get('content-disposition') ?? '';
  const m = /filename\*=UTF-8''([^;]+)/i.exec(disposition);
  return { blob: await res.blob(), name: m ? decodeURIComponent(m[1]) : fallbackName };
}

/** Saves `blob` as a download named `name`. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Every item of a paged list, fetched 100 at a time (pages after the first 4 at once). */
export async function allPages<T>(fetchPage: (page: number, pageSize: number) => Promise<{ items: T[]; total: number }>): Promise<T[]> {
  const first = await fetchPage(1, 100);
  const pages = Math.ceil(first.total / 100);
  const rest: T[][] = [];
  for (let p = 2; p <= pages; p += 4) {
    const batch = await Promise.all(Array.from({ length: Math.min(4, pages - p + 1) }, (_, i) => fetchPage(p + i, 100)));
    rest.push(...batch.map((b) => b.items));
  }
  return [...first.items, ...rest.flat()];
}
