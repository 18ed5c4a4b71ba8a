import { AgentConfig } from '../config/agent-config';
import { AgentSdkError, AuthenticationError } from '../errors';
import { TokenProvider, TokenScope, describe } from '../auth/token-provider';
import { backoffDelayMs, isRetryableStatus, sleep } from './backoff';

export type FetchLike = (input: string | URL, init?: RequestInit) => Promise<Response>;

/** Extra headers computed per request (the forwarded correlation id of D13, for instance). */
export type HeaderSource = () => Record<string, string>;

/** Each attempt has the configured timeout unless the caller brings its own signal. */
export function createGovernedFetch(
  config: AgentConfig,
  tokens: TokenProvider,
  scope: TokenScope,
  extraHeaders?: HeaderSource,
  fetchImpl: FetchLike = fetch,
): FetchLike {
  return async (input, init = {}) => {
    let refreshedAfter401 = false;
    for (let retry = 0; ;) {
      const headers = new Headers(init.headers);
      headers.set('authorization', `Bearer ${await tokens.token(scope)}`);
      for (const [name, value] of Object.entries(extraHeaders?.() ?? {})) {
        if (!headers.has(name)) {
          headers.set(name, value);
        }
      }
      let response: Response;
      try {
        response = await fetchImpl(input, {
          ...init,
          headers,
          signal: init.signal ?? AbortSignal.timeout(config.timeoutMs),
        });
      } catch (error) {
        if (init.signal?.aborted || retry >= config.maxRetries) {
          throw new AgentSdkError(`request to ${String(input)} failed: ${describe(error)}`, {
            cause: error,
          });
        }
        await sleep(backoffDelayMs(retry++, config.retryBaseDelayMs));
        continue;
      }
      if (response.status === 401) {
        await response.body?.cancel();
        tokens.invalidate(scope);
        if (refreshedAfter401) {
          throw new AuthenticationError(
            `${String(input)} refused the agent's ${scope} token (401)`,
          );
        }
        refreshedAfter401 = true;
        continue;
      }
      if (isRetryableStatus(response.status) && retry < config.maxRetries) {
        await response.body?.cancel();
        await sleep(backoffDelayMs(retry++, config.retryBaseDelayMs));
        continue;
      }
      return response;
    }
  };
}
