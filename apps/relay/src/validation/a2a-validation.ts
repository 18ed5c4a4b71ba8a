import { isRecord } from './mcp-validation';
import { SchemaCheck, ValidationResult } from './validation.types';

/**
 * GR22: the agent card extension through which an agent declares the JSON Schema of its data
 * parts: `capabilities.extensions[]` entry `{uri: A2A_DATA_SCHEMA_EXTENSION, params: {request?,
 * response?}}`; `request` for data parts sent to the agent, `response` for those it answers.
 */
export const A2A_DATA_SCHEMA_EXTENSION = 'urn:agp:a2a:data-schemas:v1';

/** The schema the card declares for one direction, or undefined. */
export function declaredDataSchema(
  card: Record<string, unknown> | undefined,
  direction: 'REQUEST' | 'RESPONSE',
): unknown {
  const capabilities = card && isRecord(card.capabilities) ? card.capabilities : undefined;
  const extensions = Array.isArray(capabilities?.extensions) ? capabilities.extensions : [];
  const declared = extensions.find(
    (e): e is Record<string, unknown> => isRecord(e) && e.uri === A2A_DATA_SCHEMA_EXTENSION,
  );
  const params = declared && isRecord(declared.params) ? declared.params : undefined;
  return params?.[direction === 'REQUEST' ? 'request' : 'response'];
}

/** Every data part of a message (`params` or `result`, messages, tasks, artifacts), each checked. */
export function dataPartValidation(
  json: unknown,
  schema: unknown,
  check: SchemaCheck,
): ValidationResult[] {
  if (schema === undefined || !isRecord(json)) {
    return [];
  }
  const parts: { path: string; data: unknown }[] = [];
  for (const key of ['params', 'result'] as const) {
    collectDataParts(json[key], key, parts, 0);
  }
  return parts.map(({ path, data }) => ({
    target: 'A2A_DATA_PART',
    schema: CARD_SCHEMA,
    path,
    ...check(schema, data),
  }));
}

/** GR37: the data parts an agent answered a channel with, carried as `parts` beside the text. */
export function answerPartsValidation(
  parts: readonly unknown[],
  schema: unknown,
  check: SchemaCheck,
): ValidationResult[] {
  if (schema === undefined) {
    return [];
  }
  return parts.flatMap((part, i) =>
    isDataPart(part)
      ? [
          {
            target: 'A2A_DATA_PART' as const,
            schema: CARD_SCHEMA,
            path: `parts.${i}.data`,
            ...check(schema, part.data),
          },
        ]
      : [],
  );
}

/** The data parts among an answer's parts (A2A 0.3 and 1.0 shapes). */
export function dataPartsOf(parts: readonly unknown[]): unknown[] {
  return parts.filter(isDataPart);
}

const CARD_SCHEMA = 'agentCard capabilities.extensions data-schemas';

/** A2A 0.3 `{kind: "data", data}` and 1.0 `{data}` parts; the depth bounds a hostile nesting. */
function collectDataParts(
  value: unknown,
  path: string,
  out: { path: string; data: unknown }[],
  depth: number,
): void {
  if (depth > 8) {
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, i) => collectDataParts(item, `${path}.${i}`, out, depth + 1));
    return;
  }
  if (!isRecord(value)) {
    return;
  }
  for (const [key, inner] of Object.entries(value)) {
    if (key === 'parts' && Array.isArray(inner)) {
      inner.forEach((part, i) => {
        if (isDataPart(part)) {
          out.push({ path: `${path}.parts.${i}.data`, data: part.data });
        }
      });
    } else if (isRecord(inner) || Array.isArray(inner)) {
      collectDataParts(inner, `${path}.${key}`, out, depth + 1);
    }
  }
}

function isDataPart(part: unknown): part is { data: unknown } {
  return (
    isRecord(part) &&
    part.data !== undefined &&
    (part.kind === 'data' || (part.kind === undefined && part.text === undefined))
  );
}
