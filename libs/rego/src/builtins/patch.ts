import { jsonText } from '../values/json';
import { RegoObject, RegoSet, Value, valuesEqual } from '../values/value';
import { BuiltinDef } from './types';
import { arr, def, obj } from './helpers';

/** Thrown internally when a patch cannot apply; json.patch is then undefined. */
class PatchFailure extends Error {}

function pointer(v: Value | undefined): string[] {
  if (typeof v === 'string') {
    if (v === '' || v === '/') {
      return v === '' ? [] : [''];
    }
    return v
      .replace(/^\//, '')
      .split('/')
      .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
  }
  if (Array.isArray(v)) {
    return v.map((x) => (typeof x === 'string' ? x : jsonText(x)));
  }
  throw new PatchFailure();
}

function setElem(s: RegoSet, seg: string): Value | undefined {
  return s.values().find((x) => (typeof x === 'string' ? x : jsonText(x)) === seg);
}

function index(a: Value[], seg: string, allowEnd: boolean): number {
  if (allowEnd && seg === '-') {
    return a.length;
  }
  if (!/^(0|[1-9]\d*)$/.test(seg)) {
    throw new PatchFailure();
  }
  const i = Number(seg);
  if (i > a.length || (!allowEnd && i === a.length)) {
    throw new PatchFailure();
  }
  return i;
}

function get(doc: Value, path: string[]): Value {
  let cur = doc;
  for (const seg of path) {
    if (cur instanceof RegoObject) {
      const v = cur.get(seg);
      if (v === undefined) {
        throw new PatchFailure();
      }
      cur = v;
    } else if (Array.isArray(cur)) {
      cur = cur[index(cur, seg, false)];
    } else if (cur instanceof RegoSet) {
      const v = setElem(cur, seg);
      if (v === undefined) {
        throw new PatchFailure();
      }
      cur = v;
    } else {
      throw new PatchFailure();
    }
  }
  return cur;
}

/** Returns a copy of `doc` with `fn` applied to the container holding the last segment. */
function update(doc: Value, path: string[], fn: (parent: Value, seg: string) => Value): Value {
  if (path.length === 0) {
    throw new PatchFailure();
  }
  const [seg, ...rest] = path;
  if (rest.length === 0) {
    return fn(doc, seg);
  }
  if (doc instanceof RegoObject) {
    const child = doc.get(seg);
    if (child === undefined) {
      throw new PatchFailure();
    }
    const out = RegoObject.from(doc.entries());
    out.set(seg, update(child, rest, fn));
    return out;
  }
  if (Array.isArray(doc)) {
    const i = index(doc, seg, false);
    const out = [...doc];
    out[i] = update(doc[i], rest, fn);
    return out;
  }
  if (doc instanceof RegoSet) {
    const el = setElem(doc, seg);
    if (el === undefined) {
      throw new PatchFailure();
    }
    const out = RegoSet.from(doc.values().filter((x) => x !== el));
    out.add(update(el, rest, fn));
    return out;
  }
  throw new PatchFailure();
}

function add(doc: Value, path: string[], value: Value): Value {
  if (path.length === 0) {
    return value;
  }
  return update(doc, path, (parent, seg) => {
    if (parent instanceof RegoObject) {
      const out = RegoObject.from(parent.entries());
      out.set(seg, value);
      return out;
    }
    if (Array.isArray(parent)) {
      const out = [...parent];
      out.splice(index(parent, seg, true), 0, value);
      return out;
    }
    if (parent instanceof RegoSet) {
      if ((typeof value === 'string' ? value : jsonText(value)) !== seg) {
        throw new PatchFailure();
      }
      const out = RegoSet.from(parent.values());
      out.add(value);
      return out;
    }
    throw new PatchFailure();
  });
}

function remove(doc: Value, path: string[]): Value {
  return update(doc, path, (parent, seg) => {
    if (parent instanceof RegoObject) {
      if (parent.get(seg) === undefined) {
        throw new PatchFailure();
      }
      return RegoObject.from(parent.entries().filter(([k]) => k !== seg));
    }
    if (Array.isArray(parent)) {
      const i = index(parent, seg, false);
      return [...parent.slice(0, i), ...parent.slice(i + 1)];
    }
    if (parent instanceof RegoSet) {
      const el = setElem(parent, seg);
      if (el === undefined) {
        throw new PatchFailure();
      }
      return RegoSet.from(parent.values().filter((x) => x !== el));
    }
    throw new PatchFailure();
  });
}

function apply(doc: Value, p: RegoObject): Value {
  const op = p.get('op');
  const path = pointer(p.get('path'));
  switch (op) {
    case 'add':
      return add(doc, path, need(p.get('value')));
    case 'remove':
      return remove(doc, path);
    case 'replace':
      return path.length === 0
        ? need(p.get('value'))
        : add(remove(doc, path), path, need(p.get('value')));
    case 'move': {
      const from = pointer(p.get('from'));
      const v = get(doc, from);
      return add(remove(doc, from), path, v);
    }
    case 'copy':
      return add(doc, path, get(doc, pointer(p.get('from'))));
    case 'test':
      if (!valuesEqual(get(doc, path), need(p.get('value')))) {
        throw new PatchFailure();
      }
      return doc;
    case false:
    case null:
    case true:
    case undefined:
    default:
      throw new PatchFailure();
  }
}

function need(v: Value | undefined): Value {
  if (v === undefined) {
    throw new PatchFailure();
  }
  return v;
}

export const PATCH_BUILTINS: BuiltinDef[] = [
  def('json.patch', 2, ([doc, ps]) => {
    try {
      return arr(ps, 2).reduce<Value>((acc, p) => apply(acc, obj(p, 2)), doc);
    } catch (e) {
      if (e instanceof PatchFailure) {
        return undefined;
      }
      throw e;
    }
  }),
];
