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

/** GR35: a choice's whole text, kept while it is no longer than the relay checks. */
export interface WholeText {
  text: string;
  oversized: boolean;
  refused: boolean;
}

/** GR35: the completion a stream came to, for the checks made when it ends. */
export interface WholeAnswer {
  completion: { choices: unknown[] };
  /** Positions in `completion.choices` of the choices too long to have been kept. */
  oversized: number[];
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

/**
 * GR35: the stream as one completion. A choice that streamed no text but a refusal or tool calls
 * has `content: null`, as a whole answer would.
 */
export function wholeAnswer(
  model: string | undefined,
  choices: ReadonlyArray<{ index: number; whole?: WholeText; toolCalls: ToolCallParts[] }>,
): WholeAnswer {
  const completion = windowCompletion(
    model,
    choices.map((c) => ({ index: c.index, content: '', toolCalls: c.toolCalls })),
  );
  const oversized: number[] = [];
  choices.forEach((c, i) => {
    const whole = c.whole ?? { text: '', oversized: false, refused: false };
    const { message } = completion.choices[i] as { message: Record<string, unknown> };
    const isTextless = whole.text.length === 0 && (whole.refused || c.toolCalls.length > 0);
    message.content = whole.oversized || isTextless ? null : whole.text;
    if (whole.oversized) {
      oversized.push(i);
    }
  });
  return { completion, oversized };
}
