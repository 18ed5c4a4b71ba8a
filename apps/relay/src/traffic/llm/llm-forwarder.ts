import { Injectable } from '@nestjs/common';

import { OpenedCredentials } from '../pipeline/opened-credentials';
import { HopPipeline } from '../pipeline/hop-pipeline';
import { LlmProviderRoute } from '../pipeline/llm-route';
import { LlmCall, partiesOf } from './llm-call';
import {
  LlmUpstream,
  ProviderAnswer,
  ProviderFailure,
  ProviderRequest,
  providerLabel,
} from './llm-upstream';

/** The provider that answered, and how many of those given were tried to get there. */
export interface Answered {
  provider: LlmProviderRoute;
  answer: ProviderAnswer;
  attempts: number;
}

/** Every provider failed; `last` is the one the agent is told about. */
export class AllProvidersFailed extends Error {
  constructor(
    readonly last: LlmProviderRoute,
    readonly failures: ProviderFailure[],
  ) {
    super(failures[failures.length - 1].message);
  }
}

/** How much of a failed provider's body is read to say why it failed. */
const MAX_REASON_CHARS = 300;

/** D39: refused, timeout, 429 or 5xx before the first byte fails over; other answers are final. */
@Injectable()
export class LlmForwarder {
  constructor(
    private readonly upstream: LlmUpstream,
    private readonly credentials: OpenedCredentials,
    private readonly pipeline: HopPipeline,
  ) {}

  async firstAnswering(
    call: LlmCall,
    providers: LlmProviderRoute[],
    request: Omit<ProviderRequest, 'apiKey'>,
    /** Providers of the gateway tried before these (the audit counts attempts from the first). */
    tried = 0,
  ): Promise<Answered> {
    const failures: ProviderFailure[] = [];
    const failovers: Array<Promise<void>> = [];
    for (const [i, provider] of providers.entries()) {
      try {
        const answer = await this.open(provider, request);
        await Promise.all(failovers);
        return { provider, answer, attempts: i + 1 };
      } catch (error) {
        if (!(error instanceof ProviderFailure) || request.signal.aborted) {
          throw error;
        }
        failures.push(error);
        const next = providers[i + 1];
        if (next) {
          const recorded = this.failedOver(call, provider, next, error, tried + i + 1);
          recorded.catch(() => undefined);
          failovers.push(recorded);
        }
      }
    }
    await Promise.all(failovers);
    throw new AllProvidersFailed(providers[providers.length - 1], failures);
  }

  /** LLM_GATEWAY_FAILOVER: `failed` was skipped for `next`; `attempt` counts from 1. */
  failedOver(
    call: LlmCall,
    failed: LlmProviderRoute,
    next: LlmProviderRoute,
    failure: ProviderFailure,
    attempt: number,
  ): Promise<void> {
    return this.pipeline.recordFailover(partiesOf(call), failed, next, failure, attempt);
  }

  private async open(
    provider: LlmProviderRoute,
    request: Omit<ProviderRequest, 'apiKey'>,
  ): Promise<ProviderAnswer> {
    const apiKey = this.apiKeyOf(provider);
    const answer = await this.upstream.open(provider, {
      ...request,
      ...(apiKey ? { apiKey } : {}),
    });
    if (answer.statusCode !== 429 && answer.statusCode < 500) {
      return answer;
    }
    const said = await answer.body.text().catch(() => '');
    const retryAfter = answer.headers['retry-after'];
    throw new ProviderFailure(
      'STATUS',
      `${providerLabel(provider)} answered HTTP ${answer.statusCode}${said ? `: ${said.slice(0, MAX_REASON_CHARS)}` : ''}`,
      answer.statusCode,
      typeof retryAfter === 'string' ? retryAfter : undefined,
    );
  }

  /** D37: the provider's key, opened for this request; one that cannot be opened fails it over. */
  private apiKeyOf(provider: LlmProviderRoute): string | undefined {
    if (!provider.apiKeySealed) {
      return undefined;
    }
    try {
      return this.credentials.open(provider.apiKeySealed);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      throw new ProviderFailure(
        'UNREACHABLE',
        `${providerLabel(provider)}: its API key cannot be opened (${why}); set it again`,
      );
    }
  }
}
