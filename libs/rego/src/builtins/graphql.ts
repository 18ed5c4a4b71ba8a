import {
  DefinitionNode,
  DocumentNode,
  GraphQLError,
  GraphQLSchema,
  Kind,
  ObjectTypeDefinitionNode,
  buildASTSchema,
  parse,
  specifiedRules,
  validate,
  validateSchema,
} from 'graphql';
import { fromJson, toJson } from '../values/json';
import { RegoObject, Value } from '../values/value';
import { Json, queryAst, schemaAst } from './graphql-ast';
import { printQuery, printSchema } from './graphql-print';
import { builtinErr, def } from './helpers';
import { BuiltinDef, BuiltinError } from './types';

// graphql.* as OPA defines them: documents are parsed and validated with graphql-js, and returned in
// the shape OPA gives them (graphql-ast.ts).

const PUNCTUATOR = /"(\.\.\.|[!$&():=@[\]{|}])"/g;

/** gqlparser's wording of graphql-js's messages, and where: `<message> in GraphQL string at location L:C`. */
function gqlError(e: unknown, source = ''): string {
  if (!(e instanceof GraphQLError)) {
    return e instanceof Error ? e.message : String(e);
  }
  const at = e.locations?.[0];
  let msg = e.message
    .replace(/^Syntax Error: /, '')
    .replace(/\.$/, '')
    .replace(PUNCTUATOR, '$1')
    .replace(/^Unexpected variable "\$[^"]*" in constant value$/, 'Unexpected $');
  if (at && msg === 'Expected Name, found }') {
    // An empty `{}` body: gqlparser asks for a definition.
    const lines = source.split('\n');
    const before = (lines[at.line - 1] ?? '').slice(0, at.column - 1).trimEnd();
    if (before.endsWith('{')) {
      msg = 'expected at least one definition, found }';
    }
  }
  let col = at?.column ?? 0;
  if (msg === 'Unterminated string' || msg.startsWith('Invalid character')) {
    msg = 'Unexpected <Invalid>';
  }
  if (at && msg.startsWith('Unexpected description')) {
    // gqlparser names the string token itself.
    const line = source.split('\n')[at.line - 1] ?? '';
    const m = /^"([^"]*)"/.exec(line.slice(at.column - 1));
    msg = `Unexpected String ${JSON.stringify(m?.[1] ?? '')}`;
  }
  if (msg.startsWith('Unexpected String')) {
    col++; // gqlparser places a string token after its opening quote
  }
  return at ? `${msg} in GraphQL string at location ${at.line}:${col}` : msg;
}

function parseDoc(text: string, what: string): DocumentNode {
  // gqlparser reads an empty query document as one without operations.
  if (what === 'query' && text.trim() === '') {
    return { kind: Kind.DOCUMENT, definitions: [] };
  }
  try {
    return parse(text, { allowLegacyFragmentVariables: true });
  } catch (e) {
    throw builtinErr(gqlError(e, text));
  }
}

/** A document given as text, or as the AST object graphql.parse_* returned (printed back). */
function textOf(v: Value, pos: number, what: 'query' | 'schema'): string {
  if (typeof v === 'string') {
    return v;
  }
  if (v instanceof RegoObject) {
    const ast = toJson(v) as Record<string, Json>;
    return what === 'query' ? printQuery(ast) : printSchema(ast);
  }
  throw new BuiltinError('eval_type_error', `operand ${pos} must be one of {object, string}`);
}

// gqlparser accepts `extend type X` for a type no definition names (federation schemas do this):
// such an extension becomes the definition before graphql-js builds the schema.
function lenientSchema(doc: DocumentNode): DocumentNode {
  const defined = new Set(
    doc.definitions
      .filter((d) => 'name' in d && !d.kind.endsWith('Extension'))
      .map((d) => (d as { name: { value: string } }).name.value),
  );
  const definitions = doc.definitions.map((d): DefinitionNode => {
    if (d.kind === Kind.OBJECT_TYPE_EXTENSION && !defined.has(d.name.value)) {
      defined.add(d.name.value);
      const definition: ObjectTypeDefinitionNode = { ...d, kind: Kind.OBJECT_TYPE_DEFINITION };
      return definition;
    }
    return d;
  });
  return { ...doc, definitions };
}

function buildSchema(text: string): { doc: DocumentNode; schema: GraphQLSchema } {
  const doc = parseDoc(text, 'schema');
  let schema: GraphQLSchema;
  try {
    schema = buildASTSchema(lenientSchema(doc), { assumeValidSDL: false });
  } catch (e) {
    throw builtinErr(gqlError(e));
  }
  const errors = validateSchema(schema).filter(
    // gqlparser does not require a query root type.
    (e) => !/Query root type must be provided/.test(e.message),
  );
  if (errors.length > 0) {
    throw builtinErr(gqlError(errors[0]));
  }
  return { doc, schema };
}

function verify(qText: string, sText: string): { q: DocumentNode; s: DocumentNode } {
  const { doc: s, schema } = buildSchema(sText);
  const q = parseDoc(qText, 'query');
  if (q.definitions.length > 0) {
    const errors = validate(schema, q, specifiedRules);
    if (errors.length > 0) {
      throw builtinErr(gqlError(errors[0]));
    }
  }
  return { q, s };
}

function valid(fn: () => unknown): boolean {
  try {
    fn();
    return true;
  } catch {
    return false;
  }
}

export const GRAPHQL_BUILTINS: BuiltinDef[] = [
  def('graphql.parse_query', 1, ([q]) =>
    fromJson(queryAst(parseDoc(textOf(q, 1, 'query'), 'query'))),
  ),
  def('graphql.parse_schema', 1, ([s]) =>
    fromJson(schemaAst(parseDoc(textOf(s, 1, 'schema'), 'schema'))),
  ),
  def('graphql.schema_is_valid', 1, ([s]) => valid(() => buildSchema(textOf(s, 1, 'schema')))),
  def('graphql.is_valid', 2, ([q, s]) =>
    valid(() => verify(textOf(q, 1, 'query'), textOf(s, 2, 'schema'))),
  ),
  def('graphql.parse', 2, ([q, s]) => {
    const { q: qd, s: sd } = verify(textOf(q, 1, 'query'), textOf(s, 2, 'schema'));
    return [fromJson(queryAst(qd)), fromJson(schemaAst(sd))];
  }),
  def('graphql.parse_and_verify', 2, ([q, s]) => {
    try {
      const { q: qd, s: sd } = verify(textOf(q, 1, 'query'), textOf(s, 2, 'schema'));
      return [true, fromJson(queryAst(qd)), fromJson(schemaAst(sd))];
    } catch {
      return [false, new RegoObject(), new RegoObject()];
    }
  }),
];
