import * as ts from 'typescript';

export type JsonSchema = Record<string, unknown>;

const SCHEMA_REF = '#/components/schemas/';
const MAX_DEPTH = 24;

/** JSON Schema 2020-12 of a TypeScript type as `JSON.stringify` writes its values (F24). */
export class TypeSchemas {
  readonly named: Record<string, JsonSchema> = {};
  private readonly names = new Map<ts.Symbol, string>();

  constructor(
    private readonly checker: ts.TypeChecker,
    private readonly anonymousFile: string,
  ) {}

  schemaOf(type: ts.Type, depth = 0): JsonSchema {
    if (depth > MAX_DEPTH) {
      return {};
    }
    const symbol = this.nameOf(type);
    if (symbol) {
      return { $ref: `${SCHEMA_REF}${this.define(symbol, type, depth)}` };
    }
    return this.structure(type, depth);
  }

  private nameOf(type: ts.Type): ts.Symbol | undefined {
    const alias = type.aliasSymbol;
    if (alias && !type.aliasTypeArguments?.length && this.isNamedDeclaration(alias)) {
      return alias;
    }
    const symbol = type.getSymbol();
    const isNamedKind =
      symbol !== undefined &&
      (symbol.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.Class | ts.SymbolFlags.Enum)) !==
        0;
    const hasTypeArguments =
      (type.flags & ts.TypeFlags.Object) !== 0 &&
      ((type as ts.ObjectType).objectFlags & ts.ObjectFlags.Reference) !== 0 &&
      this.checker.getTypeArguments(type as ts.TypeReference).length > 0;
    if (
      isNamedKind &&
      !hasTypeArguments &&
      symbol.name !== 'Date' &&
      this.isNamedDeclaration(symbol)
    ) {
      return symbol;
    }
    return undefined;
  }

  private isNamedDeclaration(symbol: ts.Symbol): boolean {
    const declaration = symbol.declarations?.[0];
    return declaration !== undefined && declaration.getSourceFile().fileName !== this.anonymousFile;
  }

  private define(symbol: ts.Symbol, type: ts.Type, depth: number): string {
    const known = this.names.get(symbol);
    if (known) {
      return known;
    }
    let name = symbol.name.replace(/[^A-Za-z0-9._-]+/g, '_');
    for (let n = 2; this.named[name]; n++) {
      name = `${symbol.name}${n}`;
    }
    this.names.set(symbol, name);
    this.named[name] = {}; // taken before descending, for recursive types
    const schema = this.structure(type, depth + 1);
    const description = this.documentation(symbol);
    this.named[name] = description ? { description, ...schema } : schema;
    return name;
  }

  private structure(type: ts.Type, depth: number): JsonSchema {
    const flags = type.flags;
    if (flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) {
      return {};
    }
    if (flags & ts.TypeFlags.Boolean) {
      return { type: 'boolean' };
    }
    if (flags & ts.TypeFlags.Union) {
      return this.union(type as ts.UnionType, depth);
    }
    if (flags & ts.TypeFlags.StringLiteral) {
      return { type: 'string', const: (type as ts.StringLiteralType).value };
    }
    if (flags & ts.TypeFlags.NumberLiteral) {
      return { type: 'number', const: (type as ts.NumberLiteralType).value };
    }
    if (flags & ts.TypeFlags.BooleanLiteral) {
      return { type: 'boolean', const: this.checker.typeToString(type) === 'true' };
    }
    if (flags & ts.TypeFlags.StringLike) {
      return { type: 'string' };
    }
    if (flags & (ts.TypeFlags.NumberLike | ts.TypeFlags.BigIntLike)) {
      return { type: 'number' };
    }
    if (flags & ts.TypeFlags.Null) {
      return { type: 'null' };
    }
    if (flags & ts.TypeFlags.NonPrimitive) {
      return { type: 'object' };
    }
    if (type.getSymbol()?.name === 'Date') {
      return { type: 'string', format: 'date-time' };
    }
    if (this.checker.isTupleType(type)) {
      const items = this.checker.getTypeArguments(type as ts.TypeReference);
      return {
        type: 'array',
        prefixItems: items.map((item) => this.schemaOf(item, depth + 1)),
        minItems: items.length,
        maxItems: items.length,
      };
    }
    if (this.checker.isArrayType(type)) {
      const [item] = this.checker.getTypeArguments(type as ts.TypeReference);
      return { type: 'array', items: item ? this.schemaOf(item, depth + 1) : {} };
    }
    return this.object(type, depth);
  }

  private union(type: ts.UnionType, depth: number): JsonSchema {
    const members = type.types.filter(
      (member) => !(member.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)),
    );
    const booleans = members.filter((member) => member.flags & ts.TypeFlags.BooleanLiteral);
    const others = booleans.length === 2 ? members.filter((m) => !booleans.includes(m)) : members;
    const schemas = [
      ...(booleans.length === 2 ? [{ type: 'boolean' }] : []),
      ...others.map((member) => this.schemaOf(member, depth + 1)),
    ];
    const literals = schemas.filter((schema) => 'const' in schema || schema.type === 'null');
    if (literals.length === schemas.length && schemas.length > 1) {
      return {
        enum: schemas.map((schema) => ('const' in schema ? schema.const : null)),
      };
    }
    return schemas.length === 1 ? schemas[0] : { anyOf: schemas };
  }

  private object(type: ts.Type, depth: number): JsonSchema {
    if (type.getCallSignatures().length > 0) {
      return {};
    }
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const property of this.checker.getPropertiesOfType(type)) {
      const propertyType = this.checker.getTypeOfSymbol(property);
      if (propertyType.getCallSignatures().length > 0 || property.name.startsWith('__')) {
        continue; // a method, or a symbol-keyed member: not in the JSON
      }
      const description = this.documentation(property);
      const schema = this.schemaOf(propertyType, depth + 1);
      properties[property.name] = description ? { description, ...schema } : schema;
      const isOptional =
        (property.flags & ts.SymbolFlags.Optional) !== 0 ||
        (propertyType.flags & ts.TypeFlags.Union &&
          (propertyType as ts.UnionType).types.some((t) => t.flags & ts.TypeFlags.Undefined));
      if (!isOptional) {
        required.push(property.name);
      }
    }
    const index = this.checker
      .getIndexInfosOfType(type)
      .find((info) => info.keyType.flags & ts.TypeFlags.String);
    return {
      type: 'object',
      ...(Object.keys(properties).length ? { properties } : {}),
      ...(required.length ? { required: required.sort() } : {}),
      additionalProperties: index ? this.schemaOf(index.type, depth + 1) : false,
    };
  }

  private documentation(symbol: ts.Symbol): string {
    return ts.displayPartsToString(symbol.getDocumentationComment(this.checker)).trim();
  }
}
