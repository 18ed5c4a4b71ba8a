import {
  AgentConfig,
  AgentConfigInput,
  LoadConfigOptions,
  loadConfig,
  resolveConfig,
} from '../config/agent-config';
import { ApiError } from '../errors';
import { TokenEvents, TokenProvider, TokenScope, readBody } from '../auth/token-provider';
import { CORRELATION_HEADER, currentCorrelationId } from '../http/correlation';
import { requestBudgetMs } from '../http/backoff';
import { FetchLike, createGovernedFetch } from '../http/governed-fetch';
import { McpRelayClient, McpRelayClientOptions } from '../mcp/mcp-relay-client';
import {
  AgentCardRefreshResult,
  LlmGatewaySubscription,
  McpServerInfo,
  Subscription,
  parseAgentCardRefreshResult,
  parseLlmGatewaySubscription,
  parseMcpServerInfo,
  parsePage,
  parseSubscription,
} from '../models/models';

export const SUBSCRIPTIONS_PAGE_SIZE = 100;
export const SUBSCRIPTIONS_MAX_PAGES = 100;

/**
 * S14: what the relay adds to an MCP server's wait before its 504 reaches the agent (the server's
 * `timeoutMs` is the relay's, 30 s by default like SVC_TIMEOUT; judging and auditing come on top).
 */
export const RELAY_ANSWER_MARGIN_MS = 10_000;

export interface LlmGatewayConnection {
  /** `{base_url}/relay/llm/{gatewayId}/v1` (D20, D39). */
  baseUrl: string;
  /** Carries the agent's `mcp:call` token and the request behaviour (D37). */
  fetch: typeof fetch;
}

export interface AgentClientOptions extends TokenEvents {
  fetch?: FetchLike;
}

/** The plain client of one agent (D21). */
export class AgentClient {
  readonly config: AgentConfig;
  readonly tokens: TokenProvider;
  private readonly fetchImpl: FetchLike;
  private readonly apiFetch: FetchLike;

  constructor(config: AgentConfig | AgentConfigInput, options: AgentClientOptions = {}) {
    this.config = resolveConfig(config);
    this.fetchImpl = options.fetch ?? fetch;
    this.tokens = new TokenProvider(this.config, options, this.fetchImpl);
    this.apiFetch = this.governedFetch('svc:api');
  }

  static fromEnv(options: LoadConfigOptions & AgentClientOptions = {}): AgentClient {
    return new AgentClient(loadConfig(options), options);
  }

  get agentId(): string {
    return this.config.agentId;
  }

  // A fetch with this agent's token of `scope` and the request behaviour of the specification,
  // forwarding the current request's `X-Correlation-Id` when `forwardCorrelationId` is on.
  governedFetch(scope: TokenScope, forwardCorrelationId = true, timeoutMs?: number): FetchLike {
    const headers = forwardCorrelationId ? correlationHeaders : undefined;
    const config = timeoutMs ? { ...this.config, timeoutMs } : this.config;
    return createGovernedFetch(config, this.tokens, scope, headers, this.fetchImpl);
  }

  async request<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await this.apiFetch(`${this.config.baseUrl}${path}`, {
      method,
      headers: {
        accept: 'application/json',
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const answer = await readBody(response);
    if (!response.ok) {
      throw new ApiError(
        `${method} ${path} answered ${response.status}${detailOf(answer)}`,
        response.status,
        answer,
      );
    }
    return answer as T;
  }

  /** Every subscription of the agent (D21, D32), read in pages of 100 up to 100 pages. */
  async listSubscriptions(agentId: string = this.agentId): Promise<Subscription[]> {
    return this.readAllPages(`/relay/v1/agents/${agentId}/subscriptions`, parseSubscription);
  }

  /** The LLM gateways the agent is subscribed to (D21). */
  async listLlmGatewaySubscriptions(
    agentId: string = this.agentId,
  ): Promise<LlmGatewaySubscription[]> {
    return this.readAllPages(
      `/relay/v1/agents/${agentId}/llm-gateway-subscriptions`,
      parseLlmGatewaySubscription,
    );
  }

  /** The MCP servers the agent is subscribed to, with their tool grants (D21). */
  async listMcpServers(agentId: string = this.agentId): Promise<McpServerInfo[]> {
    return this.readAllPages(`/relay/v1/agents/${agentId}/mcp-servers`, parseMcpServerInfo);
  }

  /** Asks the platform to fetch the agent's card again (D21, D38). */
  async refreshAgentCard(agentId: string = this.agentId): Promise<AgentCardRefreshResult> {
    return parseAgentCardRefreshResult(
      await this.request('POST', `/relay/v1/agents/${agentId}/agent-card/refresh`),
    );
  }

  /** An MCP client for one server, through the relay (`{base_url}/relay/mcp/{id}`, D20). */
  mcp(mcpServerId: string, options: McpRelayClientOptions = {}): McpRelayClient {
    return new McpRelayClient(
      `${this.config.baseUrl}/relay/mcp/${mcpServerId}`,
      mcpServerId,
      this.governedFetch('mcp:call', options.forwardCorrelationId ?? true),
      { requestTimeoutMs: requestBudgetMs(this.config, RELAY_ANSWER_MARGIN_MS), ...options },
    );
  }

  // An LLM gateway the agent is subscribed to, for any OpenAI-compatible client (`new OpenAI({
  // baseURL, fetch, apiKey: 'unused' })`): the relay path takes `mcp:call` tokens only (D8).
  llm(gatewayId: string, options: { forwardCorrelationId?: boolean } = {}): LlmGatewayConnection {
    return {
      baseUrl: `${this.config.baseUrl}/relay/llm/${gatewayId}/v1`,
      fetch: this.governedFetch('mcp:call', options.forwardCorrelationId ?? true) as typeof fetch,
    };
  }

  private async readAllPages<T>(path: string, parse: (raw: unknown) => T): Promise<T[]> {
    const items: T[] = [];
    for (let page = 1; page <= SUBSCRIPTIONS_MAX_PAGES; page++) {
      const answer = parsePage(
        await this.request('GET', `${path}?page=${page}&pageSize=${SUBSCRIPTIONS_PAGE_SIZE}`),
        parse,
      );
      items.push(...answer.items);
      if (answer.items.length < SUBSCRIPTIONS_PAGE_SIZE || items.length >= answer.total) {
        break;
      }
    }
    return items;
  }
}

function correlationHeaders(): Record<string, string> {
  const id = currentCorrelationId();
  return id ? { [CORRELATION_HEADER]: id } : {};
}

function detailOf(body: unknown): string {
  if (body && typeof body === 'object' && 'detail' in body) {
    return `: ${String(body.detail)}`;
  }
  return '';
}
