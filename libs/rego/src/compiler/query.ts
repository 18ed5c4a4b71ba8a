import { Expr } from '../ast/ast';
import { RegoCompileError, RegoErrorDetail } from '../errors';
import { tokenize } from '../lexer/lexer';
import { Cursor } from '../parser/cursor';
import { parseBody } from '../parser/exprs';
import { checkUnsupported } from './checks';
import { Program } from './compiler';
import { Resolver } from './resolve';
import { Safety } from './safety';
import { SlotMap } from './slots';
import { CompiledQuery } from './types';
import { displayName, exprVarsShallow } from './vars';

/** Parses and compiles a query body against a program. */
export function compileQuery(program: Program, query: string, file = 'query'): CompiledQuery {
  const errors: RegoErrorDetail[] = [];
  const c = new Cursor(tokenize(query, file), file);
  const parsed = parseBody(c, '');
  if (parsed.length === 0) {
    throw new RegoCompileError([
      { code: 'rego_parse_error', message: 'empty query', location: { file, row: 1, col: 1 } },
    ]);
  }
  const resolver = new Resolver({
    pkgPath: [],
    ruleRoots: new Set(),
    imports: new Map(),
    functions: program.functionArity,
    builtins: program.builtins,
    errors,
  });
  const scope = resolver.newScope();
  const body = resolver.body(parsed, scope);
  const safety = new Safety(
    (t) =>
      t.kind === 'builtin'
        ? program.builtins.get(t.name)?.arity
        : program.functionArity.get(t.path.join('.')),
    errors,
  );
  safety.body(body, new Set(), new Set());
  checkUnsupported([], program.builtins, errors, body, program.root, program.schemas);
  if (errors.length > 0) {
    throw new RegoCompileError(errors);
  }
  const slots = new SlotMap();
  const cbody: Expr[] = slots.body(body);
  const names = new Set<string>();
  body.forEach((e) => exprVarsShallow(e, names));
  const outputs: [string, number][] = [];
  for (const n of names) {
    if (!n.startsWith('$_') && slots.slots.has(n)) {
      outputs.push([displayName(n), slots.slots.get(n)!]);
    }
  }
  return { body: cbody, nslots: slots.size, outputs };
}
