import { applyMasks, toRegExp } from '../../decisions/apply-masks';
import { MaskEntry } from '../../decisions/decision.types';

export interface ToolCallParts {
  index: number;
  id?: string;
  type?: string;
  function: { name?: string; arguments: string };
}

/** What one choice of a stream holds back while the relay judges it (T20). */
export interface ChoiceBuffer {
  index: number;
  pending: string;
  toolCalls: ToolCallParts[];
}

/** The end of the text up to and including its last whitespace: a word may still be growing. */
function afterLastWhitespace(text: string): number {
  for (let i = text.length - 1; i >= 0; i -= 1) {
    if (/\s/.test(text[i])) {
      return i + 1;
    }
  }
  return 0;
}

/** T20: cut back before any mask match the cut would split, so a value is never half masked. */
export function releasableEnd(
  pending: string,
  masks: readonly MaskEntry[],
  isFinal: boolean,
): number {
  let end = isFinal ? pending.length : afterLastWhitespace(pending);
  const patterns = masks.flatMap((m) => {
    const regex = m.pattern === undefined ? null : toRegExp(m.pattern);
    return regex
      ? [new RegExp(regex.source, regex.flags.includes('g') ? regex.flags : `${regex.flags}g`)]
      : [];
  });
  let moved = true;
  while (moved && end > 0) {
    moved = false;
    for (const pattern of patterns) {
      for (const match of pending.matchAll(pattern)) {
        const start = match.index;
        if (match[0].length > 0 && start < end && start + match[0].length > end) {
          end = start;
          moved = true;
        }
      }
    }
  }
  return end;
}

/** T20: shaped as a whole completion, so whole-completion policies judge streams the same way. */
export function windowCompletion(
  model: string | undefined,
  choices: ReadonlyArray<{ index: number; content: string; toolCalls: ToolCallParts[] }>,
): { object: string; model?: string; choices: unknown[] } {
  return {
    object: 'chat.completion',
    ...(model ? { model } : {}),
    choices: choices.map((c) => ({
      index: c.index,
      message: {
        role: 'assistant',
        content: c.content,
        ...(c.toolCalls.length > 0
          ? {
              tool_calls: c.toolCalls.map((t) => ({
                id: t.id,
                type: t.type ?? 'function',
                function: { name: t.function.name, arguments: t.function.arguments },
              })),
            }
          : {}),
      },
    })),
  };
}

export function maskedChoices(
  window: { choices: unknown[] },
  masks: readonly MaskEntry[],
): Array<{ content: string; toolCalls?: unknown[] }> {
  const masked = applyMasks(window, masks).json as { choices?: unknown } | string;
  return window.choices.map((_c, i) => {
    const choice: unknown =
      typeof masked === 'object' && Array.isArray(masked.choices) ? masked.choices[i] : masked;
    const message: unknown = (choice as { message?: unknown } | null)?.message ?? choice;
    if (typeof message === 'string') {
      return { content: message };
    }
    const { content, tool_calls: toolCalls } = (message ?? {}) as {
      content?: unknown;
      tool_calls?: unknown;
    };
    return {
      content: typeof content === 'string' ? content : '[MASKED:MASKED]',
      ...(Array.isArray(toolCalls) ? { toolCalls } : {}),
    };
  });
}
