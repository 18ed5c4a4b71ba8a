import {
  ASTNode,
  DefinitionNode,
  DocumentNode,
  GraphQLError,
  GraphQLSchema,
  Kind,
  ObjectTypeDefinitionNode,
  TypeNode,
  ValueNode,
  VariableDefinitionNode,
  buildASTSchema,
  parse,
  specifiedRules,
  validate,
  validateSchema,
} from 'graphql';
import { fromJson, toJson } from '../values/json';
import { RegoObject, Value } from '../values/value';
import { builtinErr, def } from './helpers';
import { BuiltinDef, BuiltinError } from './types';

// graphql.* as OPA defines them: documents are parsed and validated with graphql-js, and returned in
// the shape OPA gives them (the JSON of the Go gqlparser AST, with positions and empty lists left out).

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** gqlparser's value kinds, by their numeric code. */
const VALUE_KIND: Partial<Record<string, number>> = {
  [Kind.VARIABLE]: 0,
  [Kind.INT]: 1,
  [Kind.FLOAT]: 2,
  [Kind.STRING]: 3,
  [Kind.BOOLEAN]: 5,
  [Kind.NULL]: 6,
  [Kind.ENUM]: 7,
  [Kind.LIST]: 8,
  [Kind.OBJECT]: 9,
};

/** Drops what OPA prunes from the AST: null members and empty lists. */
function pruned(o: Record<string, Json | undefined>): { [k: string]: Json } {
  const out: { [k: string]: Json } = {};
  for (const [k, v] of Object.entries(o)) {
    if (v !== undefined && v !== null && !(Array.isArray(v) && v.length === 0)) {
      out[k] = v;
    }
  }
  return out;
}

function typeOf(t: TypeNode): Json {
  switch (t.kind) {
    case Kind.NAMED_TYPE:
      return { NamedType: t.name.value, NonNull: false };
    case Kind.LIST_TYPE:
      return { Elem: typeOf(t.type), NamedType: '', NonNull: false };
    case Kind.NON_NULL_TYPE: {
      const inner = typeOf(t.type) as { [k: string]: Json };
      return { ...inner, NonNull: true };
    }
  }
}

function valueOf(v: ValueNode): Json {
  const kind = v.kind === Kind.STRING && v.block ? 4 : (VALUE_KIND[v.kind] ?? 0);
  let raw = '';
  let children: Json[] = [];
  switch (v.kind) {
    case Kind.VARIABLE:
      raw = v.name.value;
      break;
    case Kind.INT:
    case Kind.FLOAT:
    case Kind.STRING:
    case Kind.ENUM:
      raw = v.value;
      break;
    case Kind.BOOLEAN:
      raw = String(v.value);
      break;
    case Kind.NULL:
      raw = 'null';
      break;
    case Kind.LIST:
      children = v.values.map((x) => ({ Name: '', Value: valueOf(x) }));
      break;
    case Kind.OBJECT:
      children = v.fields.map((f) => ({ Name: f.name.value, Value: valueOf(f.value) }));
      break;
  }
  return pruned({ Children: children, ExpectedTypeHasDefault: false, Kind: kind, Raw: raw });
}

function directives(node: { directives?: readonly ASTNode[] }): Json[] {
  return (node.directives ?? []).map((d) =>
    d.kind === Kind.DIRECTIVE
      ? pruned({
          Arguments: d.arguments?.map((a) => ({ Name: a.name.value, Value: valueOf(a.value) })),
          Location: '',
          Name: d.name.value,
        })
      : null,
  );
}

function selections(node: ASTNode): Json[] {
  if (!('selectionSet' in node) || !node.selectionSet) {
    return [];
  }
  return node.selectionSet.selections.map((s) => {
    switch (s.kind) {
      case Kind.FIELD:
        return pruned({
          Alias: s.alias?.value ?? s.name.value,
          Arguments: s.arguments?.map((a) => ({ Name: a.name.value, Value: valueOf(a.value) })),
          Directives: directives(s),
          Name: s.name.value,
          SelectionSet: selections(s),
        });
      case Kind.FRAGMENT_SPREAD:
        return pruned({ Directives: directives(s), Name: s.name.value });
      case Kind.INLINE_FRAGMENT:
        return pruned({
          Directives: directives(s),
          SelectionSet: selections(s),
          TypeCondition: s.typeCondition?.name.value ?? '',
        });
    }
  });
}

function variables(defs: readonly VariableDefinitionNode[] | undefined): Json[] | undefined {
  return defs?.map((v) =>
    pruned({
      DefaultValue: v.defaultValue ? valueOf(v.defaultValue) : undefined,
      Directives: directives(v),
      Type: typeOf(v.type),
      Used: false,
      Variable: v.variable.name.value,
    }),
  );
}

function queryAst(doc: DocumentNode): Json {
  const ops: Json[] = [];
  const frags: Json[] = [];
  for (const d of doc.definitions) {
    if (d.kind === Kind.OPERATION_DEFINITION) {
      ops.push(
        pruned({
          Directives: directives(d),
          Name: d.name?.value ?? '',
          Operation: d.operation,
          SelectionSet: selections(d),
          VariableDefinitions: variables(d.variableDefinitions),
        }),
      );
    } else if (d.kind === Kind.FRAGMENT_DEFINITION) {
      frags.push(
        pruned({
          Directives: directives(d),
          Name: d.name.value,
          SelectionSet: selections(d),
          TypeCondition: d.typeCondition.name.value,
          VariableDefinition: variables(d.variableDefinitions),
        }),
      );
    }
  }
  return pruned({ Fragments: frags, Operations: ops });
}

const DEFINITION_KIND: Partial<Record<string, string>> = {
  [Kind.SCALAR_TYPE_DEFINITION]: 'SCALAR',
  [Kind.OBJECT_TYPE_DEFINITION]: 'OBJECT',
  [Kind.INTERFACE_TYPE_DEFINITION]: 'INTERFACE',
  [Kind.UNION_TYPE_DEFINITION]: 'UNION',
  [Kind.ENUM_TYPE_DEFINITION]: 'ENUM',
  [Kind.INPUT_OBJECT_TYPE_DEFINITION]: 'INPUT_OBJECT',
  [Kind.SCALAR_TYPE_EXTENSION]: 'SCALAR',
  [Kind.OBJECT_TYPE_EXTENSION]: 'OBJECT',
  [Kind.INTERFACE_TYPE_EXTENSION]: 'INTERFACE',
  [Kind.UNION_TYPE_EXTENSION]: 'UNION',
  [Kind.ENUM_TYPE_EXTENSION]: 'ENUM',
  [Kind.INPUT_OBJECT_TYPE_EXTENSION]: 'INPUT_OBJECT',
};

function argumentDefs(node: ASTNode): Json[] {
  if (!('arguments' in node) || !node.arguments) {
    return [];
  }
  return node.arguments.map((a) =>
    a.kind === Kind.INPUT_VALUE_DEFINITION
      ? pruned({
          DefaultValue: a.defaultValue ? valueOf(a.defaultValue) : undefined,
          Description: a.description?.value ?? '',
          Directives: directives(a),
          Name: a.name.value,
          Type: typeOf(a.type),
        })
      : null,
  );
}

function typeDefinition(d: DefinitionNode): Json {
  const kind = DEFINITION_KIND[d.kind];
  const fields =
    'fields' in d && d.fields
      ? d.fields.map((f) =>
          pruned({
            Arguments: argumentDefs(f),
            DefaultValue:
              f.kind === Kind.INPUT_VALUE_DEFINITION && f.defaultValue
                ? valueOf(f.defaultValue)
                : undefined,
            Description: f.description?.value ?? '',
            Directives: directives(f),
            Name: f.name.value,
            Type: typeOf(f.type),
          }),
        )
      : [];
  return pruned({
    BuiltIn: false,
    Description: 'description' in d ? (d.description?.value ?? '') : '',
    Directives: directives(d),
    EnumValues:
      'values' in d && d.values
        ? d.values.map((v) =>
            pruned({
              Description: v.description?.value ?? '',
              Directives: directives(v),
              Name: v.name.value,
            }),
          )
        : [],
    Fields: fields,
    Interfaces: 'interfaces' in d && d.interfaces ? d.interfaces.map((i) => i.name.value) : [],
    Kind: kind ?? '',
    Name: 'name' in d && d.name ? d.name.value : '',
    Types: 'types' in d && d.types ? d.types.map((t) => t.name.value) : [],
  });
}

function schemaAst(doc: DocumentNode): Json {
  const defs: Json[] = [];
  const exts: Json[] = [];
  const dirs: Json[] = [];
  const schema: Json[] = [];
  const schemaExt: Json[] = [];
  for (const d of doc.definitions) {
    if (d.kind === Kind.SCHEMA_DEFINITION || d.kind === Kind.SCHEMA_EXTENSION) {
      const s = pruned({
        Description: d.kind === Kind.SCHEMA_DEFINITION ? (d.description?.value ?? '') : '',
        Directives: directives(d),
        OperationTypes: d.operationTypes?.map((o) => ({
          Operation: o.operation,
          Type: o.type.name.value,
        })),
      });
      (d.kind === Kind.SCHEMA_DEFINITION ? schema : schemaExt).push(s);
    } else if (d.kind === Kind.DIRECTIVE_DEFINITION) {
      dirs.push(
        pruned({
          Arguments: argumentDefs(d),
          Description: d.description?.value ?? '',
          IsRepeatable: d.repeatable,
          Locations: d.locations.map((l) => l.value),
          Name: d.name.value,
        }),
      );
    } else if (DEFINITION_KIND[d.kind]) {
      (d.kind.endsWith('Extension') ? exts : defs).push(typeDefinition(d));
    }
  }
  return pruned({
    Definitions: defs,
    Directives: dirs,
    Extensions: exts,
    Schema: schema,
    SchemaExtension: schemaExt,
  });
}

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

type JsonObject = Record<string, Json>;
const list = (v: Json | undefined): JsonObject[] => (Array.isArray(v) ? (v as JsonObject[]) : []);
const text = (v: Json | undefined): string => (typeof v === 'string' ? v : '');

function printType(t: Json | undefined): string {
  const o = (t ?? {}) as JsonObject;
  const base = o.Elem ? `[${printType(o.Elem)}]` : text(o.NamedType);
  return base + (o.NonNull === true ? '!' : '');
}

function printValue(v: Json | undefined): string {
  const o = (v ?? {}) as JsonObject;
  const children = list(o.Children);
  switch (typeof o.Kind === 'number' ? o.Kind : -1) {
    case 0:
      return `$${text(o.Raw)}`;
    case 3:
    case 4:
      return JSON.stringify(text(o.Raw));
    case 8:
      return `[${children.map((c) => printValue(c.Value)).join(', ')}]`;
    case 9:
      return `{${children.map((c) => `${text(c.Name)}: ${printValue(c.Value)}`).join(', ')}}`;
    default:
      return text(o.Raw);
  }
}

function printArgs(args: Json | undefined): string {
  const a = list(args);
  return a.length ? `(${a.map((x) => `${text(x.Name)}: ${printValue(x.Value)}`).join(', ')})` : '';
}

function printDirectives(d: Json | undefined): string {
  return list(d)
    .map((x) => ` @${text(x.Name)}${printArgs(x.Arguments)}`)
    .join('');
}

function printSelections(sel: Json | undefined): string {
  const items = list(sel);
  if (items.length === 0) {
    return '';
  }
  const body = items.map((s) => {
    if (s.TypeCondition !== undefined || (s.Name === undefined && s.SelectionSet)) {
      const on = text(s.TypeCondition) ? ` on ${text(s.TypeCondition)}` : '';
      return `...${on}${printDirectives(s.Directives)}${printSelections(s.SelectionSet)}`;
    }
    if (s.Alias === undefined) {
      return `...${text(s.Name)}${printDirectives(s.Directives)}`;
    }
    const alias = text(s.Alias) && s.Alias !== s.Name ? `${text(s.Alias)}: ` : '';
    return `${alias}${text(s.Name)}${printArgs(s.Arguments)}${printDirectives(s.Directives)}${printSelections(s.SelectionSet)}`;
  });
  return ` { ${body.join(' ')} }`;
}

function printVariables(vars: Json | undefined): string {
  const v = list(vars);
  return v.length
    ? `(${v.map((x) => `$${text(x.Variable)}: ${printType(x.Type)}${x.DefaultValue ? ` = ${printValue(x.DefaultValue)}` : ''}`).join(', ')})`
    : '';
}

function printQuery(ast: JsonObject): string {
  const ops = list(ast.Operations).map(
    (o) =>
      `${text(o.Operation) || 'query'} ${text(o.Name)}${printVariables(o.VariableDefinitions)}${printDirectives(o.Directives)}${printSelections(o.SelectionSet)}`,
  );
  const frags = list(ast.Fragments).map(
    (f) =>
      `fragment ${text(f.Name)}${printVariables(f.VariableDefinition)} on ${text(f.TypeCondition)}${printDirectives(f.Directives)}${printSelections(f.SelectionSet)}`,
  );
  return [...ops, ...frags].join('\n');
}

function printDescription(d: Json | undefined): string {
  return text(d) ? `${JSON.stringify(text(d))} ` : '';
}

function printArgDefs(args: Json | undefined): string {
  const a = list(args);
  return a.length
    ? `(${a.map((x) => `${printDescription(x.Description)}${text(x.Name)}: ${printType(x.Type)}${x.DefaultValue ? ` = ${printValue(x.DefaultValue)}` : ''}${printDirectives(x.Directives)}`).join(', ')})`
    : '';
}

function printDefinition(d: JsonObject, extend: boolean): string {
  const head = `${extend ? 'extend ' : printDescription(d.Description)}`;
  const name = text(d.Name);
  const dirs = printDirectives(d.Directives);
  const fields = list(d.Fields).map(
    (f) =>
      `${printDescription(f.Description)}${text(f.Name)}${printArgDefs(f.Arguments)}: ${printType(f.Type)}${f.DefaultValue ? ` = ${printValue(f.DefaultValue)}` : ''}${printDirectives(f.Directives)}`,
  );
  const block = fields.length ? ` { ${fields.join(' ')} }` : '';
  const impl = list(d.Interfaces).length
    ? ` implements ${(d.Interfaces as string[]).join(' & ')}`
    : '';
  switch (text(d.Kind)) {
    case 'SCALAR':
      return `${head}scalar ${name}${dirs}`;
    case 'OBJECT':
      return `${head}type ${name}${impl}${dirs}${block}`;
    case 'INTERFACE':
      return `${head}interface ${name}${impl}${dirs}${block}`;
    case 'INPUT_OBJECT':
      return `${head}input ${name}${dirs}${block}`;
    case 'UNION':
      return `${head}union ${name}${dirs} = ${(list(d.Types) as unknown as string[]).join(' | ')}`;
    case 'ENUM': {
      const values = list(d.EnumValues).map(
        (v) => `${printDescription(v.Description)}${text(v.Name)}${printDirectives(v.Directives)}`,
      );
      return `${head}enum ${name}${dirs} { ${values.join(' ')} }`;
    }
    default:
      return '';
  }
}

function printSchema(ast: JsonObject): string {
  const out: string[] = [];
  for (const s of list(ast.Schema)) {
    const ops = list(s.OperationTypes).map((o) => `${text(o.Operation)}: ${text(o.Type)}`);
    out.push(
      `${printDescription(s.Description)}schema${printDirectives(s.Directives)} { ${ops.join(' ')} }`,
    );
  }
  for (const d of list(ast.Directives)) {
    out.push(
      `${printDescription(d.Description)}directive @${text(d.Name)}${printArgDefs(d.Arguments)}${d.IsRepeatable === true ? ' repeatable' : ''} on ${(list(d.Locations) as unknown as string[]).join(' | ')}`,
    );
  }
  list(ast.Definitions).forEach((d) => out.push(printDefinition(d, false)));
  list(ast.Extensions).forEach((d) => out.push(printDefinition(d, true)));
  return out.join('\n');
}

/**
 * gqlparser accepts `extend type X` for a type no definition names (federation schemas do this):
 * such an extension becomes the definition before graphql-js builds the schema.
 */
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
