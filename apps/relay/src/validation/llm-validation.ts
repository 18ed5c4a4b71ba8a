import { isRecord } from './mcp-validation';
import { SchemaCheck, ValidationResult } from './validation.types';

/**
 * GR23: each choice's answer against the request's `response_format`: with `json_schema`, its
 * `json_schema.schema`; with `json_object`, only that the content is JSON. A choice without text
 * content (a refusal) is not checked. GR35: each tool call's `function.arguments` against the
 * `parameters` of the request's function of that name.
 */
export function llmAnswerValidation(
  request: unknown,
  completion: unknown,
  check: SchemaCheck,
): ValidationResult[] {
  const format = responseFormatOf(request);
  const functions = functionSchemasOf(request);
  if (format === undefined && functions.size === 0) {
    return [];
  }
  const choices =
    isRecord(completion) && Array.isArray(completion.choices) ? completion.choices : [];
  return choices.flatMap((choice, i) => {
    const message = isRecord(choice) && isRecord(choice.message) ? choice.message : {};
    const content = format ? contentValidation(format, message.content, i, check) : [];
    const calls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
    return [
      ...content,
      ...calls.flatMap((call, n) => toolCallArguments(functions, call, i, n, check)),
    ];
  });
}

/** GR35: whether a request's answer has anything to check, so a stream keeps its whole text. */
export function answerHasSchemas(request: unknown): boolean {
  return responseFormatOf(request) !== undefined || functionSchemasOf(request).size > 0;
}

/**
 * GR35: a streamed answer, assembled when the stream ends. A choice longer than the relay keeps
 * for checking (`oversized`, positions in `choices`) is not vouched for.
 */
export function streamedAnswerValidation(
  request: unknown,
  completion: unknown,
  oversized: { choices: number[]; limit: number },
  check: SchemaCheck,
): ValidationResult[] {
  const format = responseFormatOf(request);
  const tooLong = format
    ? oversized.choices.map((i): ValidationResult => ({
        target: 'LLM_RESPONSE',
        schema:
          format.schema === undefined
            ? 'response_format json_object'
            : 'response_format json_schema',
        path: `choices.${i}.message.content`,
        valid: false,
        errors: [
          {
            path: '',
            keyword: 'size',
            message: `the answer is longer than the ${oversized.limit} characters checked`,
          },
        ],
      }))
    : [];
  return [...tooLong, ...llmAnswerValidation(request, completion, check)];
}

type ResponseFormat = { schema?: unknown };

function responseFormatOf(request: unknown): ResponseFormat | undefined {
  const format =
    isRecord(request) && isRecord(request.response_format) ? request.response_format : undefined;
  if (format?.type === 'json_object') {
    return {};
  }
  if (format?.type === 'json_schema' && isRecord(format.json_schema)) {
    const { schema } = format.json_schema;
    return schema === undefined ? undefined : { schema };
  }
  return undefined;
}

/** The request's functions that declare `parameters`, by name (the first of a repeated name). */
function functionSchemasOf(request: unknown): Map<string, unknown> {
  const schemas = new Map<string, unknown>();
  const tools = isRecord(request) && Array.isArray(request.tools) ? request.tools : [];
  for (const tool of tools) {
    const fn = isRecord(tool) && isRecord(tool.function) ? tool.function : undefined;
    if (typeof fn?.name === 'string' && fn.parameters !== undefined && !schemas.has(fn.name)) {
      schemas.set(fn.name, fn.parameters);
    }
  }
  return schemas;
}

function contentValidation(
  format: ResponseFormat,
  content: unknown,
  i: number,
  check: SchemaCheck,
): ValidationResult[] {
  if (typeof content !== 'string') {
    return [];
  }
  const base = {
    target: 'LLM_RESPONSE',
    schema:
      format.schema === undefined ? 'response_format json_object' : 'response_format json_schema',
    path: `choices.${i}.message.content`,
  } as const;
  const parsed = parseJson(content);
  if (!parsed.ok) {
    const why = 'the answer is not JSON';
    return [{ ...base, valid: false, errors: [{ path: '', keyword: 'json', message: why }] }];
  }
  return [
    format.schema === undefined
      ? { ...base, valid: true, errors: [] }
      : { ...base, ...check(format.schema, parsed.value) },
  ];
}

/** A call of a function the request did not declare with parameters is not checked. */
function toolCallArguments(
  functions: Map<string, unknown>,
  call: unknown,
  i: number,
  n: number,
  check: SchemaCheck,
): ValidationResult[] {
  const fn = isRecord(call) && isRecord(call.function) ? call.function : undefined;
  const schema = typeof fn?.name === 'string' ? functions.get(fn.name) : undefined;
  if (fn === undefined || schema === undefined) {
    return [];
  }
  const base = {
    target: 'LLM_TOOL_ARGUMENTS',
    schema: 'tools function.parameters',
    path: `choices.${i}.message.tool_calls.${n}.function.arguments`,
  } as const;
  // An empty string is how some providers stream a call without arguments.
  const parsed = fn.arguments === '' ? ({ ok: true, value: {} } as const) : parseJson(fn.arguments);
  if (!parsed.ok) {
    const why = 'the arguments are not a JSON string';
    return [{ ...base, valid: false, errors: [{ path: '', keyword: 'json', message: why }] }];
  }
  return [{ ...base, ...check(schema, parsed.value) }];
}

function parseJson(text: unknown): { ok: true; value: unknown } | { ok: false } {
  if (typeof text !== 'string') {
    return { ok: false };
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}
