import { Json } from './graphql-ast';

// An AST as graphql-ast.ts gives it, printed back to GraphQL text: OPA's graphql.* built-ins take a
// document either as text or as the object graphql.parse_* returned.

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

export function printQuery(ast: JsonObject): string {
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

export function printSchema(ast: JsonObject): string {
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
