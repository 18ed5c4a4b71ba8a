/** What was checked against a schema (guardrails.md GR19). */
export type ValidationTarget =
  | 'TOOL_ARGUMENTS'
  | 'TOOL_STRUCTURED_CONTENT'
  | 'A2A_DATA_PART'
  | 'LLM_RESPONSE'
  | 'LLM_TOOL_ARGUMENTS';

/** One schema violation: where in the checked value, which keyword, the validator's message. */
export interface SchemaViolation {
  /** JSON Pointer into the checked value (`/amount`); `` for the value itself. */
  path: string;
  keyword: string;
  message: string;
}

/** One value checked against one schema (GR19). */
export interface ValidationResult {
  target: ValidationTarget;
  /** Where the schema came from (`tools/list inputSchema`, `response_format`, …). */
  schema: string;
  /** Dot path of the checked value in `input.message.json` (`params.arguments`). */
  path: string;
  valid: boolean;
  /** At most MAX_VIOLATIONS; messages name schema keywords, never the value's content. */
  errors: SchemaViolation[];
  /** The schema itself could not be compiled (its `valid` is then false). */
  schemaError?: string;
}

/** POLICY.md project twin `input.validation`: present when a hop had something to check. */
export interface ValidationInput {
  valid: boolean;
  results: ValidationResult[];
}

export const MAX_VIOLATIONS = 20;

/** A checker: a schema and a value in, whether it conforms out (SchemaValidator.check). */
export type SchemaCheck = (
  schema: unknown,
  value: unknown,
) => Pick<ValidationResult, 'valid' | 'errors' | 'schemaError'>;

/** The input document's `validation` from a hop's results; undefined when nothing was checked. */
export function validationOf(results: ValidationResult[]): ValidationInput | undefined {
  return results.length === 0 ? undefined : { valid: results.every((r) => r.valid), results };
}
