import { BigNum, RegoObject, Value } from '../../values/value';
import { FunctionType, MaybeType } from './types';

/** The type as OPA prints it (`array[number]`, `object<a: string>[string: any]`, `any<…>`). */
export function typeText(t: MaybeType): string {
  if (!t) {
    return '???';
  }
  switch (t.kind) {
    case 'null':
    case 'boolean':
    case 'number':
    case 'string':
      return t.kind;
    case 'array':
      return (
        'array' +
        (t.static.length > 0 ? '<' + t.static.map(typeText).join(', ') + '>' : '') +
        (t.dynamic ? '[' + typeText(t.dynamic) + ']' : '')
      );
    case 'object':
      return (
        'object' +
        (t.static.length > 0
          ? '<' + t.static.map((s) => `${keyText(s.key)}: ${typeText(s.value)}`).join(', ') + '>'
          : '') +
        (t.dynamic ? `[${typeText(t.dynamic.key)}: ${typeText(t.dynamic.value)}]` : '')
      );
    case 'set':
      return 'set[' + typeText(t.of) + ']';
    case 'any':
      return t.of.length === 0 ? 'any' : 'any<' + t.of.map(typeText).join(', ') + '>';
    case 'function':
      return `${argsText(t)} => ${typeText(t.result)}`;
  }
}

/** A static key as Go's `%v` prints the JSON value OPA keeps (strings unquoted). */
function keyText(k: Value): string {
  if (typeof k === 'string') {
    return k;
  }
  if (k === null) {
    return '<nil>';
  }
  if (typeof k === 'number' || typeof k === 'bigint' || typeof k === 'boolean') {
    return String(k);
  }
  if (Array.isArray(k)) {
    return '[' + k.map(keyText).join(' ') + ']';
  }
  if (k instanceof RegoObject) {
    return (
      'map[' +
      k
        .entries()
        .map(([a, b]) => `${keyText(a)}:${keyText(b)}`)
        .join(' ') +
      ']'
    );
  }
  return k instanceof BigNum ? k.text : 'set';
}

/** Argument list with names where the declaration has them: `(x: string, y: string)`. */
export function argsText(f: FunctionType, withResult = false): string {
  const parts = f.args.map((a, i) => (f.names?.[i] ? `${f.names[i]}: ` : '') + typeText(a));
  if (f.variadic) {
    parts.push(typeText(f.variadic) + '...');
  }
  if (withResult && f.result) {
    parts.push((f.resultName ? `${f.resultName}: ` : '') + typeText(f.result));
  }
  return '(' + parts.join(', ') + ')';
}
