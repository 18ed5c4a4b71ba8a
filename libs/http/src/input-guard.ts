import { FieldError } from './problem-details';

/** F23: how deeply a JSON body may nest. */
export const MAX_BODY_DEPTH = 64;

/** A lone UTF-16 surrogate (no pair), or NUL: text that UTF-8 and PostgreSQL cannot hold. */
// eslint-disable-next-line no-control-regex -- NUL is one of the characters looked for.
const UNSTORABLE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]|\u0000/;

/** F23: too deep, a lone surrogate or NUL (isEmail throws on one, PostgreSQL refuses both). */
export function unacceptableInput(
  value: unknown,
  maxDepth = MAX_BODY_DEPTH,
): FieldError | undefined {
  const pending: Array<[unknown, string, number]> = [[value, '', 0]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [item, field, depth] = next;
    if (typeof item === 'string' && UNSTORABLE.test(item)) {
      return { field, message: 'must not contain NUL or an unpaired UTF-16 surrogate' };
    }
    if (item === null || typeof item !== 'object') {
      continue;
    }
    if (depth >= maxDepth) {
      return { field, message: `must not nest deeper than ${maxDepth} levels` };
    }
    for (const [key, child] of Object.entries(item)) {
      const path = field ? `${field}.${key}` : key;
      if (UNSTORABLE.test(key)) {
        return { field: path, message: 'must not contain NUL or an unpaired UTF-16 surrogate' };
      }
      pending.push([child, path, depth + 1]);
    }
  }
  return undefined;
}
