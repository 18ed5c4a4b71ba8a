import { LlmAnswer } from './llm-completions';

/** D34: a held completion re-streamed for a resend that asks for a stream. */
export function completionAsStream(completion: unknown, wantsUsage: boolean): LlmAnswer {
  const value = (completion ?? {}) as Record<string, unknown>;
  const envelope = {
    id: typeof value.id === 'string' ? value.id : 'chatcmpl-relay',
    object: 'chat.completion.chunk',
    created: typeof value.created === 'number' ? value.created : Math.floor(Date.now() / 1000),
    model: typeof value.model === 'string' ? value.model : 'unknown',
  };
  const choices = Array.isArray(value.choices)
    ? (value.choices as Array<Record<string, unknown>>)
    : [];
  return {
    kind: 'stream',
    headers: {},
    run: async (start) => {
      const writer = start();
      for (const [i, choice] of choices.entries()) {
        const index = typeof choice.index === 'number' ? choice.index : i;
        const message = (choice.message ?? {}) as Record<string, unknown>;
        const toolCalls = Array.isArray(message.tool_calls)
          ? (message.tool_calls as object[]).map((call, n) => ({ index: n, ...call }))
          : undefined;
        const delta = {
          role: 'assistant',
          content: typeof message.content === 'string' ? message.content : null,
          ...(toolCalls ? { tool_calls: toolCalls } : {}),
        };
        for (const part of [
          { delta, finish_reason: null },
          { delta: {}, finish_reason: choice.finish_reason ?? 'stop' },
        ]) {
          await writer.data(
            JSON.stringify({ ...envelope, choices: [{ index, ...part, logprobs: null }] }),
          );
        }
      }
      if (wantsUsage && value.usage) {
        await writer.data(JSON.stringify({ ...envelope, choices: [], usage: value.usage }));
      }
      await writer.data('[DONE]');
      writer.end();
      return undefined;
    },
  };
}
