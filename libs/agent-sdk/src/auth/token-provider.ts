import { AgentConfig } from '../config/agent-config';
import { TokenRefreshError } from '../errors';
import { backoffDelayMs, isRetryableStatus, sleep } from '../http/backoff';
import { AccessToken, isTokenExpired, parseAccessToken } from '../models/access-token';

export type TokenScope = 'svc:api' | 'mcp:call';

export interface TokenEvents {
  onTokenRequested?(scope: TokenScope): void;
}

/** Concurrent callers share one request, so a burst of calls asks the endpoint once (D7). */
export class TokenProvider {
  private readonly cache = new Map<TokenScope, AccessToken>();
  private readonly pending = new Map<TokenScope, Promise<AccessToken>>();

  constructor(
    private readonly config: AgentConfig,
    private readonly events: TokenEvents = {},
    private readonly fetchImpl: (input: string, init: RequestInit) => Promise<Response> = fetch,
  ) {}

  async token(scope: TokenScope): Promise<string> {
    const cached = this.cache.get(scope);
    if (cached && !isTokenExpired(cached)) {
      return cached.accessToken;
    }
    let request = this.pending.get(scope);
    if (!request) {
      request = this.request(scope).finally(() => this.pending.delete(scope));
      this.pending.set(scope, request);
    }
    return (await request).accessToken;
  }

  cached(scope: TokenScope): AccessToken | undefined {
    return this.cache.get(scope);
  }

  /** Forgets a scope's token, so the next call asks for a new one (after a 401). */
  invalidate(scope: TokenScope): void {
    this.cache.delete(scope);
  }

  clear(): void {
    this.cache.clear();
  }

  private async request(scope: TokenScope): Promise<AccessToken> {
    const body = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: this.config.agentId,
      client_secret: this.config.clientSecret,
      scope,
    }).toString();
    for (let attempt = 0; ; attempt++) {
      this.events.onTokenRequested?.(scope);
      let response: Response;
      try {
        response = await this.fetchImpl(this.config.tokenUrl, {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            accept: 'application/json',
          },
          body,
          signal: AbortSignal.timeout(this.config.timeoutMs),
        });
      } catch (error) {
        if (attempt < this.config.maxRetries) {
          await sleep(backoffDelayMs(attempt, this.config.retryBaseDelayMs));
          continue;
        }
        throw new TokenRefreshError(
          `token endpoint unreachable: ${describe(error)}`,
          undefined,
          undefined,
          {
            cause: error,
          },
        );
      }
      if (isRetryableStatus(response.status) && attempt < this.config.maxRetries) {
        await response.body?.cancel();
        await sleep(backoffDelayMs(attempt, this.config.retryBaseDelayMs));
        continue;
      }
      const answer = await readBody(response);
      if (!response.ok) {
        throw new TokenRefreshError(
          `token endpoint refused ${scope}: ${response.status} ${errorCode(answer)}`.trim(),
          response.status,
          answer,
        );
      }
      const token = parseAccessToken(answer, Date.now());
      this.cache.set(scope, token);
      return token;
    }
  }
}

export async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) {
    return undefined;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function errorCode(body: unknown): string {
  if (body && typeof body === 'object' && 'error' in body) {
    return String(body.error);
  }
  return '';
}

export function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
    return `${error.message}${cause}`;
  }
  return String(error);
}
