import { accessToken } from '../auth/session';

/** A problem+json answer (D12), thrown so pages show its title and detail. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail: string,
    readonly errors: Array<{ field: string; message: string }> = [],
  ) {
    super(detail || title);
  }
}

/** D31's page of a list. */
export interface Page<T> {
  items: T[];
  page: number;
  pageSize: number;
  total: number;
}

/** One call to the platform as the signed-in user; the token never leaves this module's caller chain. */
export async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  const headers = new Headers(init.headers);
  headers.set('authorization', `Bearer ${await accessToken()}`);
  if (init.body !== undefined) {
    headers.set('content-type', 'application/json');
  }
  const response = await fetch(path, { ...init, headers });
  if (!response.ok) {
    const problem = (await response.json().catch(() => ({}))) as Partial<{
      title: string;
      detail: string;
      errors: Array<{ field: string; message: string }>;
    }>;
    throw new ApiError(
      response.status,
      problem.title ?? response.statusText,
      problem.detail ?? '',
      problem.errors,
    );
  }
  return (response.status === 204 ? undefined : await response.json()) as T;
}

export function query(params: Record<string, string | number | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') {
      search.set(name, String(value));
    }
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}
