import { createHash } from 'node:crypto';

import { Injectable } from '@nestjs/common';
import { linearRegExp } from '@agp/guardrails';
import Ajv, { AnySchema, ErrorObject, ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

import { MAX_VIOLATIONS, SchemaCheck, SchemaViolation } from './validation.types';

/** Compiled schemas kept per replica: a pure function of the schema's text (GR20). */
const MAX_COMPILED = 500;
const DRAFT_07 = /json-schema\.org\/draft-0[4-7]\/schema/;

type Compiled = { validate: ValidateFunction } | { error: string };

/**
 * GR20: ajv with JSON Schema 2020-12, the MCP specification's default dialect (a schema that
 * declares draft-07 or older gets ajv's draft-07 class). Schemas come from tool servers, agent
 * cards and agents, so `pattern` runs on the linear-time engine and every error is bounded.
 */
@Injectable()
export class SchemaValidator {
  private readonly modern = configured(new Ajv2020(OPTIONS));
  private readonly draft07 = configured(new Ajv(OPTIONS));
  private readonly compiled = new Map<string, Compiled>();

  readonly check: SchemaCheck = (schema, value) => {
    const compiled = this.compile(schema);
    if ('error' in compiled) {
      return { valid: false, errors: [], schemaError: compiled.error };
    }
    const valid = compiled.validate(value) === true;
    return { valid, errors: valid ? [] : violationsOf(compiled.validate.errors ?? []) };
  };

  private compile(schema: unknown): Compiled {
    const key = createHash('sha256').update(JSON.stringify(schema)).digest('hex');
    const known = this.compiled.get(key);
    if (known) {
      // Most recently used last: the oldest entry goes first when the map is full.
      this.compiled.delete(key);
      this.compiled.set(key, known);
      return known;
    }
    const made = this.make(schema);
    this.compiled.set(key, made);
    if (this.compiled.size > MAX_COMPILED) {
      this.compiled.delete(this.compiled.keys().next().value as string);
    }
    return made;
  }

  private make(schema: unknown): Compiled {
    if (typeof schema !== 'boolean' && (schema === null || typeof schema !== 'object')) {
      return { error: 'the schema is not a JSON object' };
    }
    const declared = (schema as { $schema?: unknown }).$schema;
    const ajv =
      typeof declared === 'string' && DRAFT_07.test(declared) ? this.draft07 : this.modern;
    try {
      // `$id`s of two servers must not clash in one instance: compile without adding by id.
      const { $id: _id, ...anonymous } = schema as Record<string, unknown>;
      return {
        validate: ajv.compile(typeof schema === 'boolean' ? schema : (anonymous as AnySchema)),
      };
    } catch (error) {
      return { error: error instanceof Error ? error.message.slice(0, 300) : String(error) };
    }
  }
}

const OPTIONS = {
  allErrors: true,
  strict: false,
  validateSchema: true,
  addUsedSchema: false,
  code: { regExp: Object.assign((pattern: string) => linearRegExp(pattern), { code: '' }) },
};

function configured<T extends Ajv>(ajv: T): T {
  addFormats(ajv);
  return ajv;
}

function violationsOf(errors: ErrorObject[]): SchemaViolation[] {
  return errors.slice(0, MAX_VIOLATIONS).map((e) => ({
    path: e.instancePath,
    keyword: e.keyword,
    message: e.message ?? e.keyword,
  }));
}
