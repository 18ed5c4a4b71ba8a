import { CallTerm, Term } from '../../ast/ast';
import { BigNum } from '../../values/decimal';
import { canonical } from '../../values/order';
import { Value } from '../../values/value';
import { constantValue } from '../constant';
import {
  arrayOf,
  MaybeType,
  objectOf,
  or,
  setOf,
  StaticProperty,
  T_ANY,
  T_BOOLEAN,
  T_NULL,
  T_NUMBER,
  T_STRING,
  Type,
} from './types';
import { isNil, select, typeOfValue, unknownAsAny, valuesOf } from './type-select';

/** A node of the type tree of `data` (OPA's `typeTreeNode`): rule documents by path. */
export class TypeNode {
  value: MaybeType;
  readonly children = new Map<string, TypeNode>();

  constructor(readonly key: Value | undefined) {}

  child(key: Value): TypeNode | undefined {
    return this.children.get(canonical(key));
  }

  /** The child for `key`, created when missing. */
  ensure(key: Value): TypeNode {
    const k = canonical(key);
    let c = this.children.get(k);
    if (!c) {
      c = new TypeNode(key);
      this.children.set(k, c);
    }
    return c;
  }

  get isLeaf(): boolean {
    return this.value !== undefined;
  }
}

/** The checker's hooks the environment calls to type comprehensions and nested calls. */
export interface ClosureTyper {
  comprehensionType(env: TypeEnv, t: Term): MaybeType;
}

/**
 * Types of variables (one scope per body, wrapping the enclosing one) and of the rule documents
 * under `data` (shared by every scope), as OPA's `TypeEnv`.
 */
export class TypeEnv {
  private readonly vars = new Map<string, Type>();
  /** Types that schemas give `input` or `data` in this scope (OPA's tree entries for them). */
  private readonly roots = new Map<'input' | 'data', Type>();

  constructor(
    readonly data: TypeNode,
    readonly typer: ClosureTyper,
    readonly callTypes: Map<CallTerm, MaybeType>,
    readonly next?: TypeEnv,
  ) {}

  wrap(): TypeEnv {
    return new TypeEnv(this.data, this.typer, this.callTypes, this);
  }

  getVar(name: string): MaybeType {
    return this.vars.get(name) ?? this.next?.getVar(name);
  }

  putVar(name: string, t: MaybeType): void {
    if (t !== undefined) {
      this.vars.set(name, t);
    }
  }

  /** The type a schema gives `input` or `data` here, if one does. */
  getRoot(name: 'input' | 'data'): Type | undefined {
    return this.roots.get(name) ?? this.next?.getRoot(name);
  }

  setRoot(name: 'input' | 'data', t: Type): void {
    this.roots.set(name, t);
  }

  /** The type of the whole of `input` or `data` (OPA's `GetByRef` of the root). */
  rootType(name: 'input' | 'data'): Type {
    const t = this.getRoot(name);
    if (t) {
      return t;
    }
    // Before any rule document has a type, OPA's tree has no `data` node: all is `any`.
    return name === 'data' && this.data.children.size > 0 ? (extent(this.data) ?? T_ANY) : T_ANY;
  }

  /** OPA's `GetByValue`: the type of a term, or undefined when unknown. */
  get(t: Term): MaybeType {
    switch (t.type) {
      case 'scalar':
        return scalarType(t.value);
      case 'var':
        return t.name === 'input' || t.name === 'data' ? this.getRef([t]) : this.getVar(t.name);
      case 'ref':
        return this.getRef(t.terms);
      case 'call':
        return this.callTypes.get(t);
      case 'array':
        return arrayOf(
          t.items.map((x) => this.get(x)),
          t.items.length === 0 ? T_ANY : undefined,
        );
      case 'set': {
        let of: MaybeType;
        for (const x of t.items) {
          of = or(of, this.get(x));
        }
        return setOf(t.items.length === 0 ? T_ANY : of);
      }
      case 'object': {
        const stat: StaticProperty[] = [];
        let dynamic: { key: MaybeType; value: MaybeType } | undefined;
        for (const [k, v] of t.pairs) {
          const key = constantValue(k);
          if (key !== undefined) {
            stat.push({ key, value: this.get(v) });
          } else {
            dynamic = { key: this.get(k), value: this.get(v) };
          }
        }
        if (stat.length === 0 && !dynamic) {
          dynamic = { key: T_ANY, value: T_ANY };
        }
        return objectOf(stat, dynamic);
      }
      case 'arraycomp':
      case 'setcomp':
      case 'objectcomp':
        return this.typer.comprehensionType(this, t);
    }
  }

  /** OPA's `GetByRef`: the type a reference denotes. */
  getRef(terms: Term[]): MaybeType {
    const head = terms[0];
    const tail = terms.slice(1);
    if (head.type === 'var') {
      if (head.name === 'data') {
        const typed = this.getRoot('data');
        return typed ? selectRef(typed, tail) : this.getDataRef(this.data, tail);
      }
      if (head.name === 'input') {
        return selectRef(this.getRoot('input') ?? T_ANY, tail);
      }
      return selectRef(this.getVar(head.name), tail);
    }
    // A composite or comprehension head is a local bound by `=` in OPA (rewriteDynamicTerms):
    // its unknown parts are `any` there (E11).
    const t = this.get(head);
    return selectRef(t && tail.length > 0 ? unknownAsAny(t) : t, tail);
  }

  private getDataRef(node: TypeNode, tail: Term[]): MaybeType {
    if (tail.length === 0) {
      return extent(node);
    }
    const key = tail[0].type === 'scalar' ? tail[0].value : undefined;
    if (node.isLeaf) {
      const c = key !== undefined && node.children.size > 0 ? node.child(key) : undefined;
      return c ? this.getDataRef(c, tail.slice(1)) : selectRef(node.value, tail);
    }
    if (key === undefined) {
      return selectRef(extent(node), tail);
    }
    const c = node.child(key);
    // Not a rule document: base data, of unknown type.
    return c ? this.getDataRef(c, tail.slice(1)) : T_ANY;
  }
}

export function scalarType(v: Value): Type {
  if (v === null) {
    return T_NULL;
  }
  if (typeof v === 'boolean') {
    return T_BOOLEAN;
  }
  if (typeof v === 'string') {
    return T_STRING;
  }
  if (typeof v === 'number' || typeof v === 'bigint' || v instanceof BigNum) {
    return T_NUMBER;
  }
  return typeOfValue(v);
}

/** OPA's `getRefRecExtent`: a rule's type, or an object of the documents below a prefix. */
export function extent(node: TypeNode): MaybeType {
  if (node.isLeaf) {
    return node.value;
  }
  const stat: StaticProperty[] = [];
  for (const c of node.children.values()) {
    const k = c.key;
    if (typeof k === 'string' || typeof k === 'number' || typeof k === 'bigint') {
      stat.push({ key: k, value: extent(c) });
    } else if (typeof k === 'boolean') {
      stat.push({ key: k, value: extent(c) });
    }
  }
  return objectOf(stat, { key: T_STRING, value: T_ANY });
}

/** OPA's `selectRef`: a constant selects a member, anything else enumerates the values. */
export function selectRef(t: MaybeType, tail: Term[]): MaybeType {
  let cur = t;
  for (const x of tail) {
    if (!cur) {
      return undefined;
    }
    const k = x.type === 'scalar' ? x.value : undefined;
    cur = k !== undefined ? select(cur, k) : valuesOf(cur);
  }
  return cur;
}

export { isNil };
