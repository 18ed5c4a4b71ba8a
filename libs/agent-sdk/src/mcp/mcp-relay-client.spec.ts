import { AgentClient, RELAY_ANSWER_MARGIN_MS } from '../api/agent-client';
import { ApiError } from '../errors';
import { requestBudgetMs } from '../http/backoff';
import { FetchLike } from '../http/governed-fetch';

const BASE_URL = 'http://agp.test';
const SERVER_ID = '7d4f4c8e-0d0b-4f59-9a39-2f1d6c3b8a01';
/** The relay's default wait for an MCP server (`timeoutMs` of a registered server). */
const SERVER_TIMEOUT_MS = 30_000;
/** What the relay took beyond it in a run of the example (`npm start`, a server that never answers). */
const RELAY_OVERHEAD_MS = 900;

/**
 * The platform as the agent sees it when its MCP server never answers: tokens at once, and every
 * POST to the MCP path answered by the relay's 504 problem after the server's timeout (T6).
 */
function relayOfASilentServer(): { fetch: FetchLike; posts: () => number } {
  let posts = 0;
  const fake: FetchLike = (input, init) => {
    const url = input.toString();
    if (url.endsWith('/oauth/token')) {
      return Promise.resolve(Response.json({ access_token: 't', expires_in: 900 }));
    }
    posts += 1;
    const problem = {
      type: 'upstream-timeout',
      status: 504,
      detail: `MCP server "silent" (${SERVER_ID}) did not answer within ${SERVER_TIMEOUT_MS} ms`,
    };
    return new Promise((resolve, reject) => {
      const answer = setTimeout(
        () => resolve(Response.json(problem, { status: 504 })),
        SERVER_TIMEOUT_MS + RELAY_OVERHEAD_MS,
      );
      init?.signal?.addEventListener('abort', () => {
        clearTimeout(answer);
        reject(new Error('aborted'));
      });
    });
  };
  return { fetch: fake, posts: () => posts };
}

describe('McpRelayClient', () => {
  const config = {
    agentId: 'agent',
    clientSecret: 'secret',
    baseUrl: BASE_URL,
    tokenUrl: `${BASE_URL}/tenant-auth/v1/oauth/token`,
    timeoutMs: 30_000,
    maxRetries: 3,
    retryBaseDelayMs: 500,
  };

  beforeEach(() => {
    jest.useFakeTimers();
  });

  afterEach(() => {
    jest.useRealTimers();
  });

  // S14: the SDK's own 60 s request timeout ended the request during the retries, so the agent read
  // "MCP error -32001: Request timed out" instead of the relay's answer naming the server.
  it("should fail with the relay's 504 naming the server when the server never answers", async () => {
    const relay = relayOfASilentServer();
    const sut = new AgentClient(config, { fetch: relay.fetch }).mcp(SERVER_ID);

    const outcome = sut.listTools().catch((error: unknown) => error);
    await jest.advanceTimersByTimeAsync(requestBudgetMs(config, RELAY_ANSWER_MARGIN_MS));
    const error = await outcome;
    await sut.close();

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      message: expect.stringContaining(`MCP server "silent" (${SERVER_ID}) did not answer`),
      statusCode: 504,
      responseBody: { detail: expect.stringContaining('did not answer') },
    });
    expect(relay.posts()).toBe(config.maxRetries + 1);
  });
});

describe(requestBudgetMs.name, () => {
  it('should add every attempt at its timeout and margin and the longest wait before each retry', () => {
    const config = { timeoutMs: 30_000, maxRetries: 3, retryBaseDelayMs: 500 };

    const budget = requestBudgetMs(config, 10_000);

    // 4 attempts of 30 + 10 s, and waits of 0.5, 1 and 2 s with their 20 % jitter.
    expect(budget).toBe(4 * 40_000 + 600 + 1_200 + 2_400);
  });
});
