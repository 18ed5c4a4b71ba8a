import { performance } from 'node:perf_hooks';

import { Action } from '@agp/contracts';
import { EventSourceMessage, createParser } from 'eventsource-parser';

import { severityOf } from '../../decisions/combine-decisions';
import { HopDecision } from '../../decisions/decision.types';
import { SseWriter } from '../pipeline/sse-writer';
import { TokenUsage } from './chat-messages';
import { AgentChunks, ChoiceState, GarbledChatStream, ProviderChunks } from './chat-chunks';
import { LlmPathErrorCode, LlmPathException, openAiErrorOf } from './llm-path.exception';
import { MAX_COMPLETION_BYTES } from './llm-upstream';
import {
  ChoiceBuffer,
  WholeAnswer,
  maskedChoices,
  releasableEnd,
  wholeAnswer,
  windowCompletion,
} from './stream-window';

/** T20: after the first, a window closes at this much held-back text, or this long after it began. */
export const WINDOW_CHARS = 64;
export const WINDOW_MS = 250;

/** What a window's judgement says may go on: the decision, or the refusal the agent gets. */
export type WindowVerdict =
  | { kind: 'deliver'; decision: HopDecision; decisionId: string }
  | { kind: 'refuse'; refusal: LlmPathException; action: Action; outcome: 'BLOCKED' | 'HELD' };

export interface ChatStreamHooks {
  /**
   * Judges one window (a RESPONSE hop, audited before anything of it is written, T1); the last
   * window of a stream whose answer is checked whole gets the whole answer too (GR35).
   */
  judge(
    window: unknown,
    text: string,
    windowNo: number,
    whole?: WholeAnswer,
  ): Promise<WindowVerdict>;
  /** GR35: the request has schemas for the answer, so its whole text is kept and checked. */
  checksWhole: boolean;
  /** D34, T20: the rest of the stream is read and held with the window. */
  hold(held: unknown, decision: HopDecision, decisionId: string): Promise<HeldVerdict>;
  /** Why the stream must stop now (a kill switch, a withdrawn subscription), if it must (T2). */
  stopReason(): Promise<string | undefined>;
}

export type HeldVerdict =
  { kind: 'released'; completion: unknown } | Extract<WindowVerdict, { kind: 'refuse' }>;

export interface ChatStreamResult {
  outcome: 'SUCCESS' | 'BLOCKED' | 'HELD' | 'ERROR' | 'CANCELLED';
  action: Action;
  usage?: TokenUsage;
  upstreamModel?: string;
  firstTokenAt?: number;
  windows: number;
  reason?: string;
}

/** The provider's stream failed before any byte of it reached the agent (T23: fail over). */
export class StreamFailedEarly extends Error {
  constructor(readonly fault: unknown) {
    super(fault instanceof Error ? fault.message : String(fault));
  }
}

/**
 * T20: released up to the last whitespace so a growing value is never out before judged whole;
 * reading waits for each judgement, so a fast provider makes larger windows, not more.
 */
export class ChatStream {
  private readonly provider: ProviderChunks;
  private readonly agent: AgentChunks;
  private windows = 0;
  private action: Action = 'LOG';
  /** Set when a window was held for review: the rest is read, then held with it. */
  private heldFor?: { decision: HopDecision; decisionId: string };

  /** `start` takes the response over and writes its headers: called once, before the first event. */
  constructor(
    start: () => SseWriter,
    private readonly hooks: ChatStreamHooks,
    private readonly agentWantsUsage: boolean,
  ) {
    this.provider = new ProviderChunks(hooks.checksWhole);
    this.agent = new AgentChunks(start, this.provider.meta);
  }

  /** Before the first write refusals and faults throw; after, they end the stream with an event. */
  async run(body: AsyncIterable<Buffer | string>, signal: AbortSignal): Promise<ChatStreamResult> {
    try {
      await this.read(body);
      const ended = await this.flush(true);
      if (ended) {
        return ended;
      }
      await this.agent.finish(
        this.provider.sorted(),
        this.agentWantsUsage ? this.provider.usage : undefined,
      );
      return this.result('SUCCESS');
    } catch (error) {
      if (error instanceof StreamEnded) {
        return error.result;
      }
      if (error instanceof LlmPathException && !this.agent.isOpen) {
        throw error;
      }
      if (signal.aborted) {
        return this.result('CANCELLED', 'the agent went away');
      }
      if (!this.agent.isOpen) {
        // D39, T23: nothing has reached the agent yet, so the gateway may still fail over.
        throw new StreamFailedEarly(error);
      }
      const reason =
        error instanceof GarbledChatStream || error instanceof Error
          ? error.message
          : String(error);
      await this.agent
        .open()
        .data(JSON.stringify({ error: openAiErrorOf(LlmPathErrorCode.UpstreamFailed, reason) }));
      return this.result('ERROR', reason);
    }
  }

  private async read(body: AsyncIterable<Buffer | string>): Promise<void> {
    const events: EventSourceMessage[] = [];
    const parser = createParser({ onEvent: (event) => events.push(event) });
    const decoder = new TextDecoder();
    let buffered = 0;
    for await (const chunk of body) {
      const text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
      buffered += text.length;
      if (buffered > MAX_COMPLETION_BYTES) {
        throw new GarbledChatStream(`an event larger than ${MAX_COMPLETION_BYTES} bytes`);
      }
      parser.feed(text);
      if (events.length > 0) {
        buffered = 0;
        events.splice(0).forEach((event) => this.provider.take(event));
        const ended = await this.flush(false);
        if (ended) {
          throw new StreamEnded(ended);
        }
      }
      if (this.provider.isDone) {
        return;
      }
    }
  }

  /** Judges and releases a window when one is due; the result when the stream must end now. */
  private async flush(isFinal: boolean): Promise<ChatStreamResult | undefined> {
    const buffers = this.provider.sorted();
    // GR35: the last window is where a stream is checked whole, even with nothing left to send.
    const whole =
      isFinal && this.hooks.checksWhole
        ? wholeAnswer(this.provider.meta.model, buffers)
        : undefined;
    if (this.heldFor) {
      return isFinal ? this.holdTheRest(buffers, this.heldFor, whole) : undefined;
    }
    const held = buffers.reduce((n, b) => n + b.pending.length, 0);
    const hasTools = isFinal && buffers.some((b) => b.toolCalls.length > 0);
    if (held === 0 && !hasTools && !whole) {
      return undefined;
    }
    if (!isFinal && !this.isDue(buffers, held)) {
      return undefined;
    }
    const stop = await this.hooks.stopReason();
    if (stop) {
      await this.agent.refuse(new LlmPathException(LlmPathErrorCode.KillSwitch, stop));
      return this.result('BLOCKED', stop);
    }
    const { window, verdict } = await this.judgeWindow(buffers, isFinal, whole);
    if (verdict.kind === 'refuse') {
      return this.refused(verdict);
    }
    this.raise(verdict.decision.action);
    if (verdict.decision.action === 'HUMAN_REVIEW_REQUIRED') {
      this.heldFor = { decision: verdict.decision, decisionId: verdict.decisionId };
      return isFinal ? this.holdTheRest(buffers, this.heldFor) : undefined;
    }
    await this.release(buffers, verdict.decision, isFinal, window);
    return undefined;
  }

  private async judgeWindow(
    buffers: ChoiceBuffer[],
    isFinal: boolean,
    whole: WholeAnswer | undefined,
  ): Promise<{ window: { choices: unknown[] }; verdict: WindowVerdict }> {
    const window = windowCompletion(
      this.provider.meta.model,
      buffers.map((b) => ({
        index: b.index,
        content: b.pending,
        toolCalls: isFinal ? b.toolCalls : [],
      })),
    );
    this.windows += 1;
    const text = buffers.map((b) => b.pending).join('\n');
    const verdict = await this.hooks.judge(window, text, this.windows, whole);
    return { window, verdict };
  }

  private async refused(
    verdict: Extract<WindowVerdict, { kind: 'refuse' }>,
  ): Promise<ChatStreamResult> {
    this.raise(verdict.action);
    await this.agent.refuse(verdict.refusal);
    return this.result(verdict.outcome, verdict.refusal.message);
  }

  private isDue(buffers: ChoiceBuffer[], held: number): boolean {
    const hasReleasable = buffers.some((b) => releasableEnd(b.pending, [], false) > 0);
    if (!hasReleasable) {
      return false;
    }
    return (
      this.windows === 0 ||
      held >= WINDOW_CHARS ||
      performance.now() - (this.provider.windowStartedAt ?? 0) >= WINDOW_MS
    );
  }

  private async release(
    buffers: ChoiceState[],
    decision: HopDecision,
    isFinal: boolean,
    judged: { choices: unknown[] },
  ): Promise<void> {
    const heads = buffers.map((b) => {
      const end = releasableEnd(b.pending, decision.mask, isFinal);
      const head = b.pending.slice(0, end);
      b.pending = b.pending.slice(end);
      return head;
    });
    const isMasked = decision.maskedFields.length > 0;
    const headWindow = windowCompletion(
      this.provider.meta.model,
      buffers.map((b, i) => ({
        index: b.index,
        content: heads[i],
        toolCalls: isFinal ? b.toolCalls : [],
      })),
    );
    const masked = isMasked ? maskedChoices(headWindow, decision.mask) : undefined;
    for (const [i, buffer] of buffers.entries()) {
      const content = masked ? masked[i].content : heads[i];
      if (content.length > 0) {
        await this.agent.chunk({ index: buffer.index, delta: { content } });
      }
      if (isFinal && buffer.toolCalls.length > 0) {
        const toolCalls =
          masked?.[i].toolCalls ?? (judged.choices[i] as ToolCallHolder).message.tool_calls;
        await this.agent.chunk({
          index: buffer.index,
          delta: { tool_calls: toolCalls.map((call, n) => ({ index: n, ...(call as object) })) },
        });
        buffer.toolCalls = [];
      }
    }
    this.provider.windowStartedAt = buffers.some((b) => b.pending.length > 0)
      ? performance.now()
      : undefined;
  }

  /**
   * D34: held back plus the rest, held as one completion, masked as the window's decision says.
   * GR35: a stream checked whole has the rest judged with the check first; only a refusal of it
   * counts (it is not held then), the hold stays the earlier window's.
   */
  private async holdTheRest(
    buffers: ChoiceState[],
    { decision, decisionId }: { decision: HopDecision; decisionId: string },
    whole?: WholeAnswer,
  ): Promise<ChatStreamResult | undefined> {
    if (whole) {
      const { verdict } = await this.judgeWindow(buffers, true, whole);
      if (verdict.kind === 'refuse') {
        return this.refused(verdict);
      }
      this.raise(verdict.decision.action);
    }
    const rest = windowCompletion(
      this.provider.meta.model,
      buffers.map((b) => ({ index: b.index, content: b.pending, toolCalls: b.toolCalls })),
    );
    const held = maskedChoices(rest, decision.mask);
    const stored = {
      ...rest,
      choices: held.map((c, i) => ({
        index: buffers[i].index,
        message: {
          role: 'assistant',
          content: c.content,
          ...(c.toolCalls ? { tool_calls: c.toolCalls } : {}),
        },
      })),
    };
    const verdict = await this.hooks.hold(stored, decision, decisionId);
    if (verdict.kind === 'refuse') {
      return this.refused(verdict);
    }
    const released = releasedChoices(verdict.completion);
    for (const [i, buffer] of buffers.entries()) {
      const choice = released[i] ?? { content: '' };
      if (choice.content.length > 0) {
        await this.agent.chunk({ index: buffer.index, delta: { content: choice.content } });
      }
      if (choice.toolCalls && choice.toolCalls.length > 0) {
        await this.agent.chunk({
          index: buffer.index,
          delta: {
            tool_calls: choice.toolCalls.map((call, n) => ({ index: n, ...(call as object) })),
          },
        });
      }
      buffer.pending = '';
      buffer.toolCalls = [];
    }
    return undefined;
  }

  private raise(action: Action): void {
    if (severityOf(action) > severityOf(this.action)) {
      this.action = action;
    }
  }

  private result(outcome: ChatStreamResult['outcome'], reason?: string): ChatStreamResult {
    return {
      outcome,
      action: this.action,
      windows: this.windows,
      ...(this.provider.usage ? { usage: this.provider.usage } : {}),
      ...(this.provider.meta.model ? { upstreamModel: this.provider.meta.model } : {}),
      ...(this.agent.firstTokenAt !== undefined ? { firstTokenAt: this.agent.firstTokenAt } : {}),
      ...(reason ? { reason } : {}),
    };
  }
}

interface ToolCallHolder {
  message: { tool_calls: unknown[] };
}

/** Ends the read loop with the result of a window that stopped the stream. */
class StreamEnded extends Error {
  constructor(readonly result: ChatStreamResult) {
    super(result.reason ?? result.outcome);
  }
}

function releasedChoices(completion: unknown): Array<{ content: string; toolCalls?: unknown[] }> {
  const choices = (completion as { choices?: unknown } | null)?.choices;
  return (Array.isArray(choices) ? choices : []).map((choice) => {
    const message = ((choice as { message?: unknown } | null)?.message ?? {}) as {
      content?: unknown;
      tool_calls?: unknown;
    };
    return {
      content: typeof message.content === 'string' ? message.content : '',
      ...(Array.isArray(message.tool_calls) ? { toolCalls: message.tool_calls } : {}),
    };
  });
}
