import {
  ASTNode,
  DefinitionNode,
  DocumentNode,
  Kind,
  TypeNode,
  ValueNode,
  VariableDefinitionNode,
} from 'graphql';

// Documents in the shape OPA's graphql.parse_* return them: the JSON of the Go gqlparser AST, with
// positions and empty lists left out.

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

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

export function queryAst(doc: DocumentNode): Json {
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

export function schemaAst(doc: DocumentNode): Json {
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
