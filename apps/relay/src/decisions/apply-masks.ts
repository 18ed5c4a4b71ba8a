import { MaskEntry } from './decision.types';
import { detectorReplacer } from './detector-masks';

export interface MaskedMessage {
  json: unknown;
  text: string;
  /** The mask paths that changed something, in mask order, without repeats. */
  maskedFields: string[];
}

const DEFAULT_LABEL = 'MASKED';
const INLINE_FLAGS = /^\(\?([ims]+)\)/;
const patterns = new Map<string, RegExp | null>();

/** Rego (RE2) inline flags like `(?i)` become RegExp flags; cached, as patterns repeat. */
export function toRegExp(pattern: string): RegExp | null {
  let compiled = patterns.get(pattern);
  if (compiled === undefined) {
    const inline = INLINE_FLAGS.exec(pattern);
    const flags = new Set(['g', 'u', ...(inline?.[1] ?? '')]);
    try {
      compiled = new RegExp(
        inline ? pattern.slice(inline[0].length) : pattern,
        [...flags].join(''),
      );
    } catch {
      compiled = null;
    }
    patterns.set(pattern, compiled);
  }
  if (compiled) {
    compiled.lastIndex = 0;
  }
  return compiled;
}

/** POLICY.md: every string value of the payload, joined by newlines (depth first, in key order). */
export function textOf(json: unknown): string {
  const parts: string[] = [];
  collectStrings(json, parts);
  return parts.join('\n');
}

// Plain loops: this runs on every masked message, and callbacks per value cost more than the walk.
function collectStrings(value: unknown, parts: string[]): void {
  if (typeof value === 'string') {
    parts.push(value);
  } else if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) {
      collectStrings(value[i], parts);
    }
  } else if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const key in record) {
      collectStrings(record[key], parts);
    }
  }
}

function segmentsOf(path: string): string[] {
  return path === '' ? [] : path.split('.');
}

function replaceStrings(value: unknown, replace: (s: string) => string): unknown {
  if (typeof value === 'string') {
    return replace(value);
  }
  if (Array.isArray(value)) {
    return value.map((item) => replaceStrings(item, replace));
  }
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, replaceStrings(v, replace)]),
    );
  }
  return value;
}

/** The value at `segments` rewritten by `rewrite`; the container is copied, never changed in place. */
function rewriteAt(
  container: unknown,
  segments: string[],
  rewrite: (value: unknown) => unknown,
): { value: unknown; found: boolean } {
  if (segments.length === 0) {
    return { value: rewrite(container), found: true };
  }
  const [head, ...rest] = segments as [string, ...string[]];
  if (Array.isArray(container)) {
    const index = Number(head);
    if (!Number.isInteger(index) || index < 0 || index >= container.length) {
      return { value: container, found: false };
    }
    const inner = rewriteAt(container[index], rest, rewrite);
    const copy: unknown[] = [...(container as unknown[])];
    copy[index] = inner.value;
    return { value: copy, found: inner.found };
  }
  if (
    container &&
    typeof container === 'object' &&
    Object.prototype.hasOwnProperty.call(container, head)
  ) {
    const inner = rewriteAt((container as Record<string, unknown>)[head], rest, rewrite);
    return {
      value: { ...(container as Record<string, unknown>), [head]: inner.value },
      found: inner.found,
    };
  }
  return { value: container, found: false };
}

/**
 * POLICY.md masks (R8, GR8). A pattern that does not compile masks the whole value: a broken
 * mask must not leak what it was meant to hide.
 */
export function applyMasks(
  json: unknown,
  masks: readonly MaskEntry[],
  originalText?: string,
): MaskedMessage {
  let current = json;
  const maskedFields: string[] = [];
  for (const mask of masks) {
    const replacement = `[MASKED:${mask.label ?? DEFAULT_LABEL}]`;
    const detector = detectorReplacer(mask);
    const regex = mask.pattern === undefined ? null : toRegExp(mask.pattern);
    const whole = !detector && (mask.pattern === undefined || regex === null);
    let hasChanged = false;
    const result = rewriteAt(current, segmentsOf(mask.path), (value) => {
      if (detector) {
        return replaceStrings(value, (s) => {
          const next = detector(s);
          hasChanged ||= next !== s;
          return next;
        });
      }
      if (whole) {
        hasChanged = value !== replacement;
        return replacement;
      }
      return replaceStrings(value, (s) => {
        const next = s.replace(regex as RegExp, replacement);
        hasChanged ||= next !== s;
        return next;
      });
    });
    current = result.value;
    if (result.found && hasChanged && !maskedFields.includes(mask.path)) {
      maskedFields.push(mask.path);
    }
  }
  return {
    json: current,
    text: maskedFields.length > 0 ? textOf(current) : (originalText ?? textOf(json)),
    maskedFields,
  };
}
