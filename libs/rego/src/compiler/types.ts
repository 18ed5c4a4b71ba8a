import { Expr, Location, Term } from '../ast/ast';
import { Value } from '../values/value';

/** A rule after resolution, safety reordering and slot assignment. */
export interface CompiledRule {
  kind: 'single' | 'multi' | 'func';
  /** Full data path of the rule's tree node (package path + ground prefix of the head). */
  path: string[];
  /** Head ref elements after the ground prefix (dynamic part). */
  tail: Term[];
  args?: Term[];
  value?: Term;
  key?: Term;
  body: Expr[];
  nslots: number;
  isDefault: boolean;
  elseRule?: CompiledRule;
  /** Head value is a constant: the first solution is enough. */
  constValue: boolean;
  loc: Location;
  /** Display name such as `data.test.p`. */
  name: string;
}

/** Node of the data tree: packages and rule paths. */
export class DocNode {
  readonly children = new Map<string, DocNode>();
  readonly rules: CompiledRule[] = [];
  readonly funcs: CompiledRule[] = [];
  defaultRule?: CompiledRule;
  defaultCount = 0;
  /** Rule index, built after compilation when the node has enough rules. */
  index?: import('./rule-index').RuleIndex;
  /** This node or a descendant has rules (non-function). */
  hasRules = false;
  hasFuncs = false;

  constructor(readonly path: string[]) {}

  child(key: string): DocNode {
    let c = this.children.get(key);
    if (!c) {
      c = new DocNode([...this.path, key]);
      this.children.set(key, c);
    }
    return c;
  }
}

export interface CompiledQuery {
  body: Expr[];
  nslots: number;
  /** Query variables reported in results (user-visible names → slots). */
  outputs: [string, number][];
}

export type ConstValue = Value;
