import Ajv, { ErrorObject, ValidateFunction } from 'ajv';
import { fromJson, toJson } from '../values/json';
import { RegoObject, Value } from '../values/value';
import { builtinErr, def } from './helpers';
import { BuiltinDef, BuiltinError } from './types';

// json.verify_schema and json.match_schema as OPA defines them (v1/topdown/jsonschema.go).

const TYPES = ['array', 'boolean', 'integer', 'number', 'null', 'object', 'string'];

/** A schema or document operand: an object, or a string of JSON. */
function jsonOperand(v: Value, pos: number): unknown {
  if (typeof v === 'string') {
    try {
      return JSON.parse(v) as unknown;
    } catch {
      throw builtinErr('invalid JSON');
    }
  }
  if (v instanceof RegoObject || typeof v === 'boolean') {
    return toJson(v);
  }
  throw new BuiltinError('eval_type_error', `operand ${pos} must be one of {object, string}`);
}

/** gojsonschema's message for an unknown `type`, checked before compiling (ajv's differs). */
function badType(schema: unknown): string | undefined {
  if (Array.isArray(schema)) {
    for (const s of schema) {
      const bad = badType(s);
      if (bad) {
        return bad;
      }
    }
    return undefined;
  }
  if (!schema || typeof schema !== 'object') {
    return undefined;
  }
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'type') {
      for (const t of Array.isArray(v) ? v : [v]) {
        if (typeof t === 'string' && !TYPES.includes(t)) {
          return `has a primitive type that is NOT VALID -- given: /${t}/ Expected valid values are:[${TYPES.join(' ')}]`;
        }
      }
    } else if (k !== 'enum' && k !== 'const' && k !== 'default' && k !== 'examples') {
      const bad = badType(v);
      if (bad) {
        return bad;
      }
    }
  }
  return undefined;
}

function compile(schema: unknown): ValidateFunction {
  const bad = badType(schema);
  if (bad) {
    throw new Error(bad);
  }
  const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
  return ajv.compile(schema as object);
}

/** gojsonschema's field path: `(root)`, `id`, `a.0.b`. */
function field(e: ErrorObject): string {
  const path = e.instancePath.split('/').slice(1);
  return path.length ? path.join('.') : '(root)';
}

function typeName(v: unknown): string {
  if (v === null) {
    return 'null';
  }
  if (Array.isArray(v)) {
    return 'array';
  }
  if (typeof v === 'number') {
    return Number.isInteger(v) ? 'integer' : 'number';
  }
  return typeof v;
}

/** One failure as gojsonschema reports it: {error, type, field, desc}. */
function describe(e: ErrorObject, doc: unknown): Record<string, string> {
  const at = e.instancePath
    .split('/')
    .slice(1)
    .reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], doc);
  let type = e.keyword;
  let desc = e.message ?? e.keyword;
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'type': {
      const want = Array.isArray(p.type) ? (p.type as string[]).join('/') : String(p.type);
      type = 'invalid_type';
      desc = `Invalid type. Expected: ${want}, given: ${typeName(at)}`;
      break;
    }
    case 'required':
      desc = `${String(p.missingProperty)} is required`;
      break;
    case 'enum':
      desc = `${field(e)} must be one of the following: ${(p.allowedValues as unknown[]).map((x) => JSON.stringify(x)).join(', ')}`;
      break;
    case 'additionalProperties':
      type = 'additional_property_not_allowed';
      desc = `Additional property ${String(p.additionalProperty)} is not allowed`;
      break;
    case 'minimum':
    case 'maximum':
      type = `number_${e.keyword === 'minimum' ? 'gte' : 'lte'}`;
      desc = `Must be ${e.keyword === 'minimum' ? 'greater' : 'less'} than or equal to ${String(p.limit)}`;
      break;
    case 'minLength':
    case 'maxLength':
      type = `string_${e.keyword === 'minLength' ? 'gte' : 'lte'}`;
      desc = `String length must be ${e.keyword === 'minLength' ? 'greater' : 'less'} than or equal to ${String(p.limit)}`;
      break;
    default:
      break;
  }
  return { error: `${field(e)}: ${desc}`, type, field: field(e), desc };
}

export const JSONSCHEMA_BUILTINS: BuiltinDef[] = [
  def('json.verify_schema', 1, ([s]) => {
    try {
      compile(jsonOperand(s, 1));
      return [true, null];
    } catch (e) {
      if (e instanceof BuiltinError) {
        throw e;
      }
      return [false, `jsonschema: ${e instanceof Error ? e.message : String(e)}`];
    }
  }),
  def('json.match_schema', 2, ([d, s]) => {
    const doc = jsonOperand(d, 1);
    let validate: ValidateFunction;
    try {
      validate = compile(jsonOperand(s, 2));
    } catch (e) {
      if (e instanceof BuiltinError) {
        throw e;
      }
      throw builtinErr(e instanceof Error ? e.message : String(e));
    }
    if (validate(doc)) {
      return [true, []];
    }
    return [false, fromJson((validate.errors ?? []).map((e) => describe(e, doc)))];
  }),
];
