import { FieldError } from './problem-details';

/** F23: how deeply a JSON body may nest. */
export const MAX_BODY_DEPTH = 64;

/** A lone UTF-16 surrogate (no pair), or NUL: text that UTF-8 and PostgreSQL cannot hold. */
// eslint-disable-next-line no-control-regex -- NUL is one of the characters looked for.
const UNSTORABLE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]|\u0000/;

const UNSTORABLE_TEXT = 'must not contain NUL or an unpaired UTF-16 surrogate';

/** F23: too deep, a lone surrogate or NUL (isEmail throws on one, PostgreSQL refuses both). */
export function unacceptableInput(
  value: unknown,
  maxDepth = MAX_BODY_DEPTH,
): FieldError | undefined {
  const found = firstUnacceptable(value, 0, maxDepth);
  return found && { field: found.path.reverse().join('.'), message: found.message };
}

interface Unacceptable {
  /** The keys from the offending value up to the root; joined only when something is found. */
  path: string[];
  message: string;
}

// Recursive (the depth is bounded by maxDepth) so the walk allocates nothing while all is well:
// it runs over every request body and every telemetry item (F51).
function firstUnacceptable(
  value: unknown,
  depth: number,
  maxDepth: number,
): Unacceptable | undefined {
  if (typeof value === 'string') {
    return UNSTORABLE.test(value) ? { path: [], message: UNSTORABLE_TEXT } : undefined;
  }
  if (value === null || typeof value !== 'object') {
    return undefined;
  }
  if (depth >= maxDepth) {
    return { path: [], message: `must not nest deeper than ${maxDepth} levels` };
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) {
      const found = firstUnacceptable(value[i], depth + 1, maxDepth);
      if (found) {
        found.path.push(String(i));
        return found;
      }
    }
    return undefined;
  }
  for (const key in value) {
    if (!Object.prototype.hasOwnProperty.call(value, key)) {
      continue;
    }
    const found = UNSTORABLE.test(key)
      ? { path: [], message: UNSTORABLE_TEXT }
      : firstUnacceptable((value as Record<string, unknown>)[key], depth + 1, maxDepth);
    if (found) {
      found.path.push(key);
      return found;
    }
  }
  return undefined;
}
