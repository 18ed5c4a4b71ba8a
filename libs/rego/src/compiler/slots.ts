import { Expr, Term } from '../ast/ast';

/** Assigns frame slots to var names, cloning terms so shared AST nodes never clash. */
export class SlotMap {
  readonly slots = new Map<string, number>();

  slot(name: string): number {
    let s = this.slots.get(name);
    if (s === undefined) {
      s = this.slots.size;
      this.slots.set(name, s);
    }
    return s;
  }

  get size(): number {
    return this.slots.size;
  }

  term(t: Term): Term {
    switch (t.type) {
      case 'scalar':
        return t;
      case 'var':
        return { ...t, slot: this.slot(t.name) };
      case 'ref':
        return {
          ...t,
          terms: t.terms.map((x, i) =>
            i === 0 && x.type === 'var' && (x.name === 'data' || x.name === 'input')
              ? x
              : this.term(x),
          ),
        };
      case 'array':
      case 'set':
        return { ...t, items: t.items.map((x) => this.term(x)) };
      case 'object':
        return { ...t, pairs: t.pairs.map(([k, v]) => [this.term(k), this.term(v)]) };
      case 'call':
        return { ...t, args: t.args.map((x) => this.term(x)) };
      case 'arraycomp':
      case 'setcomp':
        return { ...t, term: this.term(t.term), body: this.body(t.body) };
      case 'objectcomp':
        return { ...t, key: this.term(t.key), value: this.term(t.value), body: this.body(t.body) };
    }
  }

  body(body: Expr[]): Expr[] {
    return body.map((e) => this.expr(e));
  }

  private expr(e: Expr): Expr {
    const withs = e.withs.map((w) => ({ ...w, value: this.term(w.value) }));
    switch (e.kind) {
      case 'term':
        return { ...e, term: this.term(e.term), withs };
      case 'unify':
      case 'assign':
        return { ...e, left: this.term(e.left), right: this.term(e.right), withs };
      case 'some':
        return { ...e, vars: e.vars.map((v) => ({ ...v, slot: this.slot(v.name) })), withs };
      case 'somein':
        return {
          ...e,
          key: e.key ? this.term(e.key) : undefined,
          value: this.term(e.value),
          domain: this.term(e.domain),
          withs,
        };
      case 'every':
        return {
          ...e,
          key: e.key ? { ...e.key, slot: this.slot(e.key.name) } : undefined,
          value: { ...e.value, slot: this.slot(e.value.name) },
          domain: this.term(e.domain),
          body: this.body(e.body),
          withs,
        };
    }
  }
}
