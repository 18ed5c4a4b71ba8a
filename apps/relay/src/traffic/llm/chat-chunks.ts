import { performance } from 'node:perf_hooks';

import { EventSourceMessage } from 'eventsource-parser';

import { SseWriter } from '../pipeline/sse-writer';
import { TokenUsage, usageOf } from './chat-messages';
import { LlmPathException } from './llm-path.exception';
import { MAX_COMPLETION_BYTES } from './llm-upstream';
import { ChoiceBuffer, ToolCallParts, WholeText } from './stream-window';

/** What the provider said of the whole stream, which the relay's own chunks repeat. */
export interface StreamMeta {
  id?: string;
  created?: number;
  model?: string;
  systemFingerprint?: string;
}

/** The provider sent something that is not an OpenAI chat stream. */
export class GarbledChatStream extends Error {}

export type ChoiceState = ChoiceBuffer & { finishReason: unknown; whole?: WholeText };

/** T20: the provider's side, per-choice buffers of held-back text. */
export class ProviderChunks {
  readonly choices = new Map<number, ChoiceState>();
  readonly meta: StreamMeta = {};
  usage?: TokenUsage;
  isDone = false;
  /** When the oldest held-back text arrived: a window is due WINDOW_MS after. */
  windowStartedAt?: number;

  /** `keepsWhole`: each choice's whole text is kept too, to be checked when the stream ends. */
  constructor(private readonly keepsWhole = false) {}

  /** The buffers in choice order. */
  sorted(): ChoiceState[] {
    return [...this.choices.values()].sort((a, b) => a.index - b.index);
  }

  /** One provider event into the buffers. */
  take(event: EventSourceMessage): void {
    if (event.data === '[DONE]') {
      this.isDone = true;
      return;
    }
    let chunk: Record<string, unknown>;
    try {
      chunk = JSON.parse(event.data) as Record<string, unknown>;
    } catch {
      throw new GarbledChatStream('the provider sent an event that is not JSON');
    }
    const error = chunk.error as { message?: unknown } | undefined;
    if (error) {
      const said = typeof error.message === 'string' ? error.message : 'unknown error';
      throw new GarbledChatStream(`the provider failed mid-stream: ${said}`);
    }
    this.meta.id ??= typeof chunk.id === 'string' ? chunk.id : undefined;
    this.meta.created ??= typeof chunk.created === 'number' ? chunk.created : undefined;
    this.meta.model ??= typeof chunk.model === 'string' ? chunk.model : undefined;
    this.meta.systemFingerprint ??=
      typeof chunk.system_fingerprint === 'string' ? chunk.system_fingerprint : undefined;
    this.usage = usageOf(chunk) ?? this.usage;
    for (const choice of Array.isArray(chunk.choices) ? chunk.choices : []) {
      this.takeChoice(choice as Record<string, unknown>);
    }
  }

  private takeChoice(choice: Record<string, unknown>): void {
    const index = typeof choice.index === 'number' ? choice.index : 0;
    const buffer = this.choices.get(index) ?? {
      index,
      pending: '',
      toolCalls: [],
      finishReason: null,
      ...(this.keepsWhole ? { whole: { text: '', oversized: false, refused: false } } : {}),
    };
    this.choices.set(index, buffer);
    const delta = (choice.delta ?? {}) as Record<string, unknown>;
    for (const text of [delta.content, delta.refusal]) {
      if (typeof text === 'string' && text.length > 0) {
        this.windowStartedAt ??= performance.now();
        buffer.pending += text;
      }
    }
    if (buffer.whole) {
      keepWhole(buffer.whole, delta);
    }
    for (const part of Array.isArray(delta.tool_calls) ? delta.tool_calls : []) {
      mergeToolCall(buffer.toolCalls, part as Record<string, unknown>);
    }
    if (choice.finish_reason !== undefined && choice.finish_reason !== null) {
      buffer.finishReason = choice.finish_reason;
    }
  }
}

/** The response is taken over (`start`) only at the first chunk written. */
export class AgentChunks {
  isOpen = false;
  firstTokenAt?: number;
  private writer?: SseWriter;

  constructor(
    private readonly start: () => SseWriter,
    private readonly meta: StreamMeta,
  ) {}

  async chunk(choice: {
    index: number;
    delta: Record<string, unknown>;
    finish_reason?: unknown;
  }): Promise<void> {
    const isFirst = !this.isOpen;
    this.firstTokenAt ??= 'content' in choice.delta ? performance.now() : undefined;
    await this.write({
      ...this.envelope(),
      choices: [
        {
          index: choice.index,
          delta: isFirst ? { role: 'assistant', ...choice.delta } : choice.delta,
          logprobs: null,
          finish_reason: choice.finish_reason ?? null,
        },
      ],
    });
  }

  /** Each choice's finish reason, the usage when the agent asked for it, then `[DONE]`. */
  async finish(choices: ChoiceState[], usage: TokenUsage | undefined): Promise<void> {
    for (const buffer of choices) {
      await this.chunk({
        index: buffer.index,
        delta: {},
        finish_reason: buffer.finishReason ?? 'stop',
      });
    }
    if (usage) {
      await this.write({ ...this.envelope(), choices: [], usage: usageBody(usage) });
    }
    await this.open().data('[DONE]');
  }

  /** A refusal before anything was written is the HTTP answer; after, the stream's last event. */
  async refuse(refusal: LlmPathException): Promise<void> {
    if (!this.isOpen) {
      throw refusal;
    }
    await this.open().data(JSON.stringify({ error: refusal.extensions.error, ...dataOf(refusal) }));
  }

  open(): SseWriter {
    if (!this.writer) {
      this.isOpen = true;
      this.writer = this.start();
    }
    return this.writer;
  }

  private envelope(): Record<string, unknown> {
    return {
      id: this.meta.id ?? 'chatcmpl-relay',
      object: 'chat.completion.chunk',
      created: this.meta.created ?? Math.floor(Date.now() / 1000),
      model: this.meta.model ?? 'unknown',
      ...(this.meta.systemFingerprint ? { system_fingerprint: this.meta.systemFingerprint } : {}),
    };
  }

  private async write(payload: unknown): Promise<void> {
    await this.open().data(JSON.stringify(payload));
  }
}

function keepWhole(whole: WholeText, delta: Record<string, unknown>): void {
  if (typeof delta.refusal === 'string' && delta.refusal.length > 0) {
    whole.refused = true;
  }
  if (typeof delta.content !== 'string' || whole.oversized) {
    return;
  }
  if (whole.text.length + delta.content.length > MAX_WHOLE_CHARS) {
    whole.oversized = true;
    whole.text = '';
    return;
  }
  whole.text += delta.content;
}

/** GR35: the longest streamed answer checked whole, as long as a whole answer may be (T20). */
export const MAX_WHOLE_CHARS = MAX_COMPLETION_BYTES;

function mergeToolCall(calls: ToolCallParts[], part: Record<string, unknown>): void {
  const index = typeof part.index === 'number' ? part.index : calls.length;
  let call = calls.find((c) => c.index === index);
  if (!call) {
    call = { index, function: { arguments: '' } };
    calls.push(call);
  }
  if (typeof part.id === 'string') {
    call.id = part.id;
  }
  if (typeof part.type === 'string') {
    call.type = part.type;
  }
  const fn = (part.function ?? {}) as { name?: unknown; arguments?: unknown };
  if (typeof fn.name === 'string') {
    call.function.name = (call.function.name ?? '') + fn.name;
  }
  if (typeof fn.arguments === 'string') {
    call.function.arguments += fn.arguments;
  }
}

function usageBody(usage: TokenUsage): Record<string, unknown> {
  return {
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    total_tokens: usage.totalTokens,
    ...(usage.cachedTokens !== undefined
      ? { prompt_tokens_details: { cached_tokens: usage.cachedTokens } }
      : {}),
  };
}

function dataOf(refusal: LlmPathException): Record<string, unknown> {
  const { error: _error, ...data } = refusal.extensions;
  return data;
}
