import { Expr, Module, Rule, Term } from '../ast/ast';

/** Comments are not kept by this parser (OPA lists them). */
export function moduleToOpaJson(m: Module): Record<string, unknown> {
  const out: Record<string, unknown> = {
    package: {
      path: [varJson('data'), ...m.packagePath.map((p) => scalar('string', p))],
    },
  };
  if (m.imports.length > 0) {
    out.imports = m.imports.map((i) =>
      i.alias === undefined
        ? { path: termJson(i.path) }
        : { path: termJson(i.path), alias: i.alias },
    );
  }
  if (m.rules.length > 0) {
    out.rules = m.rules.map(ruleJson);
  }
  return out;
}

function ruleJson(r: Rule): Record<string, unknown> {
  const h = r.head;
  const head: Record<string, unknown> = { ref: h.ref.map(termJson) };
  if (h.ref.length === 1 && h.ref[0].type === 'var') {
    head.name = h.ref[0].name;
  }
  if (h.args) {
    head.args = h.args.map(termJson);
  }
  if (h.key) {
    head.key = termJson(h.key);
  }
  if (h.value) {
    head.value = termJson(h.value);
  } else if (!h.key) {
    // `p if …` / `f(x) if …`: OPA's parser gives the head the value true.
    head.value = scalar('boolean', true);
  }
  if (h.assign) {
    head.assign = true;
  }
  const out: Record<string, unknown> = {
    head,
    body: r.body.length > 0 ? r.body.map(exprJson) : [{ index: 0, terms: scalar('boolean', true) }],
  };
  if (r.isDefault) {
    out.default = true;
  }
  if (r.elseRule) {
    out.else = ruleJson(r.elseRule);
  }
  return out;
}

function exprJson(e: Expr, index: number): Record<string, unknown> {
  const out: Record<string, unknown> = { index, terms: exprTerms(e) };
  if (e.negated) {
    out.negated = true;
  }
  if (e.withs.length > 0) {
    out.with = e.withs.map((w) => ({ target: termJson(w.target), value: termJson(w.value) }));
  }
  return out;
}

function exprTerms(e: Expr): unknown {
  switch (e.kind) {
    case 'term':
      return e.term.type === 'call'
        ? [termJson(e.term.op), ...e.term.args.map(termJson)]
        : termJson(e.term);
    case 'unify':
      return [opRef('eq'), termJson(e.left), termJson(e.right)];
    case 'assign':
      return [opRef('assign'), termJson(e.left), termJson(e.right)];
    case 'some':
      return { symbols: e.vars.map(termJson) };
    case 'somein': {
      const args = [...(e.key ? [e.key] : []), e.value, e.domain].map(termJson);
      const op = opRef(e.key ? 'internal.member_3' : 'internal.member_2');
      return { symbols: [{ type: 'call', value: [op, ...args] }] };
    }
    case 'every':
      return {
        key: e.key ? termJson(e.key) : null,
        value: termJson(e.value),
        domain: termJson(e.domain),
        body: e.body.map(exprJson),
      };
  }
}

function scalar(type: string, value: unknown): Record<string, unknown> {
  return { type, value };
}

function varJson(name: string): Record<string, unknown> {
  // The parser names wildcards `$_N`; OPA names them `$N`.
  return scalar('var', name.startsWith('$_') ? '$' + name.slice(2) : name);
}

function opRef(name: string): Record<string, unknown> {
  const [head, ...rest] = name.split('.');
  return scalar('ref', [varJson(head), ...rest.map((p) => scalar('string', p))]);
}

function termJson(t: Term): Record<string, unknown> {
  switch (t.type) {
    case 'scalar': {
      const v = t.value;
      const type =
        v === null
          ? 'null'
          : typeof v === 'boolean'
            ? 'boolean'
            : typeof v === 'string'
              ? 'string'
              : 'number';
      return scalar(type, v);
    }
    case 'var':
      return varJson(t.name);
    case 'ref':
      return scalar('ref', t.terms.map(termJson));
    case 'array':
      return scalar('array', t.items.map(termJson));
    case 'set':
      return scalar('set', t.items.map(termJson));
    case 'object':
      return scalar(
        'object',
        t.pairs.map(([k, v]) => [termJson(k), termJson(v)]),
      );
    case 'call':
      return scalar('call', [termJson(t.op), ...t.args.map(termJson)]);
    case 'arraycomp':
      return scalar('arraycomprehension', { term: termJson(t.term), body: t.body.map(exprJson) });
    case 'setcomp':
      return scalar('setcomprehension', { term: termJson(t.term), body: t.body.map(exprJson) });
    case 'objectcomp':
      return scalar('objectcomprehension', {
        key: termJson(t.key),
        value: termJson(t.value),
        body: t.body.map(exprJson),
      });
  }
}
