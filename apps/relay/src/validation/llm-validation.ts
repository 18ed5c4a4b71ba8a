import { isRecord } from './mcp-validation';
import { SchemaCheck, ValidationResult } from './validation.types';

/**
 * GR23: each choice's answer against the request's `response_format`: with `json_schema`, its
 * `json_schema.schema`; with `json_object`, only that the content is JSON. A choice without text
 * content (a refusal, tool calls) is not checked.
 */
export function llmAnswerValidation(
  request: unknown,
  completion: unknown,
  check: SchemaCheck,
): ValidationResult[] {
  const format =
    isRecord(request) && isRecord(request.response_format) ? request.response_format : undefined;
  const schema =
    format?.type === 'json_schema' && isRecord(format.json_schema)
      ? format.json_schema.schema
      : undefined;
  if (format?.type !== 'json_object' && schema === undefined) {
    return [];
  }
  const choices =
    isRecord(completion) && Array.isArray(completion.choices) ? completion.choices : [];
  const results: ValidationResult[] = [];
  choices.forEach((choice, i) => {
    const message = isRecord(choice) && isRecord(choice.message) ? choice.message : undefined;
    if (typeof message?.content !== 'string') {
      return;
    }
    const base = {
      target: 'LLM_RESPONSE',
      schema: schema === undefined ? 'response_format json_object' : 'response_format json_schema',
      path: `choices.${i}.message.content`,
    } as const;
    let answer: unknown;
    try {
      answer = JSON.parse(message.content);
    } catch {
      const why = 'the answer is not JSON';
      results.push({
        ...base,
        valid: false,
        errors: [{ path: '', keyword: 'json', message: why }],
      });
      return;
    }
    results.push(
      schema === undefined
        ? { ...base, valid: true, errors: [] }
        : { ...base, ...check(schema, answer) },
    );
  });
  return results;
}
