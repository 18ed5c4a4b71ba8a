import { createHash } from 'node:crypto';

import { FieldError } from '@agp/http';

import { canonicalJson } from '../pipeline/canonical-json';
import type { TokenUsage } from '../pipeline/gateway-call-events';

/** An OpenAI chat completion request as the agent sent it; fields the relay does not read pass. */
export interface ChatRequest {
  model: string;
  messages: Array<Record<string, unknown>>;
  stream?: boolean;
  stream_options?: { include_usage?: boolean } & Record<string, unknown>;
  [field: string]: unknown;
}

/** Token counts as a provider reports them (`usage`). */
export type { TokenUsage };

const MAX_MODEL_NAME = 200;
const MAX_MESSAGES = 10_000;

/** D12 on the LLM path: every bad field of a chat completion request, or the request. */
export function parseChatRequest(
  body: unknown,
): { request: ChatRequest } | { errors: FieldError[] } {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return {
      errors: [{ field: 'body', message: 'must be a JSON object (a chat completion request)' }],
    };
  }
  const value = body as Record<string, unknown>;
  const errors: FieldError[] = [];
  if (
    typeof value.model !== 'string' ||
    value.model.length < 1 ||
    value.model.length > MAX_MODEL_NAME
  ) {
    errors.push({
      field: 'model',
      message: `model must be a string of 1 to ${MAX_MODEL_NAME} characters`,
    });
  }
  if (
    !Array.isArray(value.messages) ||
    value.messages.length < 1 ||
    value.messages.length > MAX_MESSAGES
  ) {
    errors.push({
      field: 'messages',
      message: `messages must be an array of 1 to ${MAX_MESSAGES} messages`,
    });
  } else {
    value.messages.forEach((message: unknown, i) => {
      if (message === null || typeof message !== 'object' || Array.isArray(message)) {
        errors.push({ field: `messages.${i}`, message: 'each message must be an object' });
      } else if (typeof (message as Record<string, unknown>).role !== 'string') {
        errors.push({ field: `messages.${i}.role`, message: 'role must be a string' });
      }
    });
  }
  if (value.stream !== undefined && value.stream !== null && typeof value.stream !== 'boolean') {
    errors.push({ field: 'stream', message: 'stream must be a boolean' });
  }
  const options = value.stream_options;
  if (
    options !== undefined &&
    options !== null &&
    (typeof options !== 'object' || Array.isArray(options))
  ) {
    errors.push({ field: 'stream_options', message: 'stream_options must be an object' });
  }
  return errors.length > 0 ? { errors } : { request: value as ChatRequest };
}

/** The text of message content: a string, or the `text` of its parts. */
function contentText(content: unknown): string[] {
  if (typeof content === 'string') {
    return [content];
  }
  if (Array.isArray(content)) {
    return content.flatMap((part) =>
      part && typeof part === 'object' && typeof (part as { text?: unknown }).text === 'string'
        ? [(part as { text: string }).text]
        : [],
    );
  }
  return [];
}

function toolCallArguments(toolCalls: unknown): string[] {
  if (!Array.isArray(toolCalls)) {
    return [];
  }
  return toolCalls.flatMap((call) => {
    const fn = (call as { function?: { name?: unknown; arguments?: unknown } } | null)?.function;
    return typeof fn?.arguments === 'string' ? [fn.arguments] : [];
  });
}

/** What one chat message says: its content, refusal and tool call arguments. */
function messageText(message: Record<string, unknown>): string[] {
  return [
    ...contentText(message.content),
    ...(typeof message.refusal === 'string' ? [message.refusal] : []),
    ...toolCallArguments(message.tool_calls),
  ];
}

/** T18: POLICY.md `message.text` of a request: what its messages say, one per line. */
export function requestText(request: ChatRequest): string {
  return request.messages.flatMap(messageText).join('\n');
}

/** T18: the same of a completion: what its choices' messages say. */
export function completionText(completion: unknown): string {
  const choices = (completion as { choices?: unknown } | null)?.choices;
  if (!Array.isArray(choices)) {
    return '';
  }
  return choices
    .flatMap((choice) => {
      const message = (choice as { message?: unknown } | null)?.message;
      return message && typeof message === 'object'
        ? messageText(message as Record<string, unknown>)
        : [];
    })
    .join('\n');
}

/** D34: a resend is "the same" request when all but its streaming options are equal. */
export function resendDigestOf(request: ChatRequest): string {
  const { stream: _stream, stream_options: _options, ...rest } = request;
  return createHash('sha256').update(canonicalJson(rest)).digest('hex');
}

/** D39: usage asked for on streams so LLM_GATEWAY_CALL can record token counts. */
export function upstreamRequest(request: ChatRequest, model: string): ChatRequest {
  return request.stream === true
    ? { ...request, model, stream_options: { ...request.stream_options, include_usage: true } }
    : { ...request, model };
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** `usage` of a completion or of a stream's last chunk. */
export function usageOf(value: unknown): TokenUsage | undefined {
  const usage = (value as { usage?: unknown } | null)?.usage;
  if (!usage || typeof usage !== 'object') {
    return undefined;
  }
  const u = usage as Record<string, unknown>;
  const details = u.prompt_tokens_details as Record<string, unknown> | null | undefined;
  const cachedTokens =
    details && typeof details === 'object' ? count(details.cached_tokens) : undefined;
  return {
    promptTokens: count(u.prompt_tokens),
    completionTokens: count(u.completion_tokens),
    totalTokens: count(u.total_tokens),
    ...(cachedTokens !== undefined ? { cachedTokens } : {}),
  };
}
