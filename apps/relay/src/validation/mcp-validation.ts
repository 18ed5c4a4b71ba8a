import { SchemaCheck, ValidationResult } from './validation.types';

/** The schemas of a tool as its server listed them (MCP `tools/list`, D51). */
export interface ToolSchemas {
  inputSchema?: unknown;
  outputSchema?: unknown;
}

/**
 * GR21: a `tools/call` request's `arguments` against the tool's `inputSchema`; its result's
 * `structuredContent` against `outputSchema`. A tool that declares an output schema must answer
 * structured content (MCP 2025-06-18 "Structured Content"), unless the result is an error.
 */
export function toolCallValidation(
  direction: 'REQUEST' | 'RESPONSE',
  json: unknown,
  tool: ToolSchemas,
  check: SchemaCheck,
): ValidationResult[] {
  const message = isRecord(json) ? json : {};
  if (direction === 'REQUEST') {
    if (tool.inputSchema === undefined) {
      return [];
    }
    const params = isRecord(message.params) ? message.params : {};
    const args = params.arguments ?? {};
    const checked = check(tool.inputSchema, args);
    return [
      { target: 'TOOL_ARGUMENTS', schema: 'inputSchema', path: 'params.arguments', ...checked },
    ];
  }
  const result = message.result;
  if (tool.outputSchema === undefined || !isRecord(result) || result.isError === true) {
    return [];
  }
  const base = {
    target: 'TOOL_STRUCTURED_CONTENT',
    schema: 'outputSchema',
    path: 'result.structuredContent',
  } as const;
  if (result.structuredContent === undefined) {
    const message = 'the tool declares an outputSchema, and its result has no structuredContent';
    return [{ ...base, valid: false, errors: [{ path: '', keyword: 'required', message }] }];
  }
  return [{ ...base, ...check(tool.outputSchema, result.structuredContent) }];
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
