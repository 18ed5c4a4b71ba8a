import { createRequire } from 'node:module';
import { RegoCompileError, RegoEvalError, formatDetail } from '../errors';
import { parseModule } from '../parser/module';
import { moduleToOpaJson } from './rego-ast-json';
import { fromJson, fromJsonDeep, normalizeBig, regoText, toJson } from '../values/json';
import { RegoObject, RegoSet, Value } from '../values/value';
import { BuiltinContext, BuiltinDef, BuiltinError } from './types';
import { builtinErr, def, elems, int, obj, oneOf, str, toBig } from './helpers';

type YamlLib = typeof import('yaml');
let yamlLib: YamlLib | undefined;

/** `yaml` is loaded on first use so that the engine loads even where only runtime deps exist. */
function yaml(): YamlLib {
  yamlLib ??= createRequire(__filename)('yaml') as YamlLib;
  return yamlLib;
}

const INT64_MIN = -(2n ** 63n);
const UINT64_MAX = 2n ** 64n - 1n;

/** OPA reads YAML through `YAMLToJSON` (E9). */
function parseYaml(s: string): unknown {
  return yaml().parse(
    s,
    (_key, v) => (typeof v === 'bigint' && (v < INT64_MIN || v > UINT64_MAX) ? Number(v) : v),
    { intAsBigInt: true },
  );
}

function bitOp(name: string, op: (a: bigint, b: bigint) => bigint): BuiltinDef {
  return def(name, 2, ([a, b]) => normalizeBig(op(toBig(int(a, 1)), toBig(int(b, 2)))));
}

function shift(name: string, op: (a: bigint, b: bigint) => bigint): BuiltinDef {
  return def(name, 2, ([a, b]) => {
    const x = toBig(int(a, 1));
    const y = toBig(int(b, 2));
    if (y < 0n) {
      throw new BuiltinError(
        'eval_type_error',
        'operand 2 must be an unsigned integer number but got a negative integer',
      );
    }
    return normalizeBig(op(x, y));
  });
}

function neighbours(g: RegoObject, node: Value): Value[] {
  const n = g.get(node);
  if (n === undefined || n === null) {
    return [];
  }
  if (Array.isArray(n) || n instanceof RegoSet) {
    return Array.isArray(n) ? n : n.values();
  }
  return [];
}

function reachable(g: RegoObject, initial: Value[]): RegoSet {
  const out = new RegoSet();
  const queue = [...initial];
  while (queue.length > 0) {
    const n = queue.shift()!;
    if (out.has(n) || g.get(n) === undefined) {
      continue;
    }
    out.add(n);
    queue.push(...neighbours(g, n));
  }
  return out;
}

function edgesOf(g: RegoObject, node: Value): Value[] | undefined {
  const e = g.get(node);
  if (e === undefined) {
    return undefined;
  }
  return Array.isArray(e) ? e : e instanceof RegoSet ? e.values() : [];
}

/** OPA's `pathBuilder` (topdown/graphs.go), step for step. */
function pathBuilder(
  g: RegoObject,
  root: Value,
  path: Value[],
  out: RegoSet,
  reached: RegoSet,
): void {
  const paths: Value[] = [];
  const edges = edgesOf(g, root);
  if (edges === undefined) {
    paths.push(...path);
    out.add([...paths]);
    return;
  }
  const next = [...path, root];
  if (edges.length === 0) {
    paths.push(...next);
    out.add([...paths]);
    return;
  }
  for (const n of edges) {
    if (reached.has(n)) {
      paths.push(...next);
      out.add([...paths]);
    } else {
      reached.add(root);
      pathBuilder(g, n, next, out, reached);
    }
  }
}

function reachablePaths(g: RegoObject, initial: Value[]): RegoSet {
  const out = new RegoSet();
  for (const node of initial) {
    const edges = edgesOf(g, node);
    if (edges === undefined) {
      continue;
    }
    if (edges.length === 0) {
      out.add([node]);
    }
    edges.forEach((n) => pathBuilder(g, n, [node], out, RegoSet.from([node])));
  }
  return out;
}

function graphArgs(args: Value[]): [RegoObject, Value[]] {
  const g = obj(args[0], 1);
  const init = args[1];
  if (!Array.isArray(init) && !(init instanceof RegoSet)) {
    throw oneOf(2, 'set, array', init);
  }
  return [g, elems(init, 2)];
}

interface SemVer {
  nums: bigint[];
  pre: string[];
}

function semver(s: string, pos: number): SemVer {
  const m =
    /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/.exec(
      s,
    );
  if (!m) {
    throw builtinErr(`operand ${pos}: string ${JSON.stringify(s)} is not a valid SemVer`);
  }
  return { nums: [BigInt(m[1]), BigInt(m[2]), BigInt(m[3])], pre: m[4] ? m[4].split('.') : [] };
}

function semverCompare(a: SemVer, b: SemVer): number {
  for (let i = 0; i < 3; i++) {
    if (a.nums[i] !== b.nums[i]) {
      return a.nums[i] < b.nums[i] ? -1 : 1;
    }
  }
  if (a.pre.length === 0 || b.pre.length === 0) {
    return a.pre.length === b.pre.length ? 0 : a.pre.length === 0 ? 1 : -1;
  }
  for (let i = 0; i < Math.min(a.pre.length, b.pre.length); i++) {
    const x = a.pre[i];
    const y = b.pre[i];
    const xn = /^\d+$/.test(x);
    const yn = /^\d+$/.test(y);
    if (x === y) {
      continue;
    }
    if (xn && yn) {
      return BigInt(x) < BigInt(y) ? -1 : 1;
    }
    if (xn !== yn) {
      return xn ? -1 : 1;
    }
    return x < y ? -1 : 1;
  }
  return Math.sign(a.pre.length - b.pre.length);
}

function walk(v: Value, path: Value[], out: Value[], ctx: BuiltinContext): void {
  // Each node costs a step (and its path a copy), so a huge document runs into the budget.
  ctx.tick(1 + path.length);
  out.push([path, v]);
  if (Array.isArray(v)) {
    v.forEach((x, i) => walk(x, [...path, i], out, ctx));
  } else if (v instanceof RegoObject) {
    v.entries().forEach(([k, x]) => walk(x, [...path, k], out, ctx));
  } else if (v instanceof RegoSet) {
    v.values().forEach((x) => walk(x, [...path, x], out, ctx));
  }
}

export const MISC_BUILTINS: BuiltinDef[] = [
  bitOp('bits.and', (a, b) => a & b),
  bitOp('bits.or', (a, b) => a | b),
  bitOp('bits.xor', (a, b) => a ^ b),
  def('bits.negate', 1, ([a]) => normalizeBig(~toBig(int(a, 1)))),
  shift('bits.lsh', (a, b) => a << b),
  shift('bits.rsh', (a, b) => a >> b),
  def('graph.reachable', 2, (args) => reachable(...graphArgs(args))),
  def('graph.reachable_paths', 2, (args) => reachablePaths(...graphArgs(args))),
  def('semver.is_valid', 1, ([s]) => {
    if (typeof s !== 'string') {
      return false;
    }
    try {
      semver(s, 1);
      return true;
    } catch {
      return false;
    }
  }),
  def('semver.compare', 2, ([a, b]) => semverCompare(semver(str(a, 1), 1), semver(str(b, 2), 2))),
  {
    name: 'walk',
    arity: 1,
    fn: () => undefined,
    relation: ([v], ctx) => {
      const out: Value[] = [];
      walk(v, [], out, ctx);
      return out;
    },
  },
  def(
    'print',
    0,
    (args, ctx) => {
      ctx.print(args.map((a) => (typeof a === 'string' ? a : JSON.stringify(toJson(a)))).join(' '));
      return true;
    },
    { variadic: true },
  ),
  // OPA answers {} when it is embedded without runtime information (topdown's `bctx.Runtime == nil`);
  // this engine never exposes the host's environment or configuration.
  def('opa.runtime', 0, () => new RegoObject()),
  def('rego.parse_module', 2, ([f, src]) => {
    const file = str(f, 1);
    const text = str(src, 2);
    let module;
    try {
      module = parseModule(text, file);
    } catch (e) {
      if (e instanceof RegoCompileError) {
        // OPA returns the parser's ast.Errors, whose text starts "1 error occurred: ".
        throw builtinErr(
          e.errors.length === 1 ? `1 error occurred: ${formatDetail(e.errors[0])}` : e.message,
        );
      }
      throw e;
    }
    return fromJsonDeep(moduleToOpaJson(module));
  }),
  // Calls in rules are replaced by the rule's annotations at compile time (compiler/annotations.ts);
  // outside a rule (a query) there are none.
  def('rego.metadata.rule', 0, () => new RegoObject()),
  def('rego.metadata.chain', 0, () => []),
  def('internal.template_string', 1, ([parts]) =>
    (parts as Value[])
      .map((p) => {
        if (!(p instanceof RegoSet)) {
          return typeof p === 'string' ? p : regoText(p);
        }
        if (p.size > 1) {
          throw new RegoEvalError(
            'eval_conflict_error',
            'template-strings must not produce multiple outputs',
          );
        }
        const v = p.values()[0];
        return v === undefined ? '<undefined>' : typeof v === 'string' ? v : regoText(v);
      })
      .join(''),
  ),
  def('trace', 1, ([s]) => (str(s, 1), true)),
  def('yaml.marshal', 1, ([v]) => yaml().stringify(toJson(v))),
  def('yaml.unmarshal', 1, ([s]) => {
    try {
      return fromJson(parseYaml(str(s, 1)));
    } catch (e) {
      throw builtinErr(
        `yaml: ${(e as Error).message.replace(/^.*?at line (\d+).*$/s, 'line $1: did not find expected node content')}`,
      );
    }
  }),
  def('yaml.is_valid', 1, ([s]) => {
    if (typeof s !== 'string') {
      return false;
    }
    try {
      parseYaml(s);
      return true;
    } catch {
      return false;
    }
  }),
];
