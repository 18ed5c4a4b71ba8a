import { Value } from '../values/value';

/** Source position: file name, 1-based row and column. */
export interface Location {
  file: string;
  row: number;
  col: number;
}

export type Term =
  | ScalarTerm
  | VarTerm
  | RefTerm
  | ArrayTerm
  | ObjectTerm
  | SetTerm
  | CallTerm
  | ArrayCompTerm
  | SetCompTerm
  | ObjectCompTerm;

export interface ScalarTerm {
  type: 'scalar';
  value: Value;
  loc: Location;
}

export interface VarTerm {
  type: 'var';
  name: string;
  loc: Location;
  /** Slot in the evaluation frame, set by the compiler. */
  slot: number;
}

export interface RefTerm {
  type: 'ref';
  /** First element is the head (var, call or composite); the rest are path elements. */
  terms: Term[];
  loc: Location;
  /** Evaluation cache for `data` refs: where the constant prefix of the path leads. */
  dataPrefix?: DataPrefix;
}

/** Resolution of the leading constant elements of a `data` ref (data is immutable per policy). */
export interface DataPrefix {
  node: import('../compiler/types').DocNode;
  base: import('../values/value').Value | undefined;
  /** Index of the first path element not covered. */
  next: number;
  /** The prefix left the rule tree: the rest is a plain lookup in base data. */
  pureBase: boolean;
}

export interface ArrayTerm {
  type: 'array';
  items: Term[];
  loc: Location;
}

export interface ObjectTerm {
  type: 'object';
  pairs: [Term, Term][];
  loc: Location;
}

export interface SetTerm {
  type: 'set';
  items: Term[];
  loc: Location;
}

export interface CallTerm {
  type: 'call';
  /** Operator: a ref such as `count`, `strings.any_prefix_match` or `data.pkg.f`. */
  op: RefTerm;
  args: Term[];
  loc: Location;
  /** Resolved by the compiler: a built-in name or a user function path. */
  target?: CallTarget;
  /** Evaluation caches: the arity of the target (-1 unknown) and the built-in definition. */
  arityCache?: number;
  builtinCache?: import('../builtins/types').BuiltinDef | null;
}

export type CallTarget = { kind: 'builtin'; name: string } | { kind: 'function'; path: string[] };

export interface ArrayCompTerm {
  type: 'arraycomp';
  term: Term;
  body: Expr[];
  loc: Location;
}

export interface SetCompTerm {
  type: 'setcomp';
  term: Term;
  body: Expr[];
  loc: Location;
}

export interface ObjectCompTerm {
  type: 'objectcomp';
  key: Term;
  value: Term;
  body: Expr[];
  loc: Location;
}

export interface WithModifier {
  target: RefTerm;
  value: Term;
  loc: Location;
  resolved?: ResolvedWith;
}

/** `with` target after resolution. */
export interface ResolvedWith {
  kind: 'input' | 'data' | 'func';
  path: string[];
  /** Built-in name or function path (joined with '.') for kind 'func'. */
  fnKey?: string;
  /** When the replacement is itself a function or built-in. */
  mock?: CallTarget;
  /** The replaced function or built-in (kind 'func'). */
  target?: CallTarget;
}

export type ExprBody =
  | { kind: 'term'; term: Term }
  | { kind: 'unify'; left: Term; right: Term }
  | { kind: 'assign'; left: Term; right: Term }
  | { kind: 'some'; vars: VarTerm[] }
  | { kind: 'somein'; key?: Term; value: Term; domain: Term }
  | { kind: 'every'; key?: VarTerm; value: VarTerm; domain: Term; body: Expr[] };

export type Expr = ExprBody & {
  negated: boolean;
  withs: WithModifier[];
  loc: Location;
};

export interface RuleHead {
  /** Name and further ref elements, e.g. `p.q[x]` → [var p, "q", var x]. */
  ref: Term[];
  args?: Term[];
  /** `:=`/`=` value (single-value rules). */
  value?: Term;
  /** `contains` element (multi-value rules). */
  key?: Term;
  assign: boolean;
  loc: Location;
}

export interface Rule {
  head: RuleHead;
  body: Expr[];
  isDefault: boolean;
  elseRule?: Rule;
  loc: Location;
  module: Module;
}

export interface Import {
  path: RefTerm;
  alias?: string;
  loc: Location;
}

export interface Module {
  file: string;
  packagePath: string[];
  packageLoc: Location;
  imports: Import[];
  rules: Rule[];
}
