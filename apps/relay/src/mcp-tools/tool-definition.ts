import { createHash } from 'node:crypto';

import { detectPromptInjection } from '@agp/guardrails';

import { canonicalJson } from '../traffic/pipeline/canonical-json';

/** D51: what of a `tools/list` entry is the tool's definition (everything a model reads). */
export const DEFINITION_FIELDS = [
  'title',
  'description',
  'inputSchema',
  'outputSchema',
  'annotations',
] as const;
export type DefinitionField = (typeof DEFINITION_FIELDS)[number];

export interface ToolDefinition {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: unknown;
  outputSchema?: unknown;
  annotations?: unknown;
}

/** D51: PINNED (as approved), CHANGED (differs from what was pinned), NEW (never pinned). */
export type ToolStatus = 'PINNED' | 'CHANGED' | 'NEW';

/** A prompt-injection finding in a definition's text (tool poisoning, guardrails.md GR14). */
export interface PoisoningFinding {
  field: DefinitionField;
  type: string;
  score: number;
}

export function definitionOf(entry: unknown): ToolDefinition | undefined {
  if (entry === null || typeof entry !== 'object') {
    return undefined;
  }
  const tool = entry as Record<string, unknown>;
  if (typeof tool.name !== 'string' || tool.name.length === 0) {
    return undefined;
  }
  const definition: ToolDefinition = { name: tool.name };
  for (const field of DEFINITION_FIELDS) {
    if (tool[field] !== undefined) {
      (definition as unknown as Record<string, unknown>)[field] = tool[field];
    }
  }
  return definition;
}

/** D51 `definitionHash`: SHA-256 (hex) of the definition's canonical JSON (keys sorted). */
export function definitionHash(definition: ToolDefinition): string {
  return createHash('sha256').update(canonicalJson(definition)).digest('hex');
}

/** D51 `changedFields`: the fields of `after` that differ from `before` (canonically compared). */
export function changedFields(before: ToolDefinition, after: ToolDefinition): DefinitionField[] {
  const field = (d: ToolDefinition, f: DefinitionField): string =>
    canonicalJson((d as unknown as Record<string, unknown>)[f] ?? null);
  return DEFINITION_FIELDS.filter((f) => field(before, f) !== field(after, f));
}

export function statusOf(hash: string, pinnedHash: string | undefined): ToolStatus {
  if (pinnedHash === undefined) {
    return 'NEW';
  }
  return pinnedHash === hash ? 'PINNED' : 'CHANGED';
}

/** GR14, D50: every schema string too: a poisoned parameter description instructs the model. */
export function poisoningOf(definition: ToolDefinition): PoisoningFinding[] {
  const findings: PoisoningFinding[] = [];
  for (const field of DEFINITION_FIELDS) {
    const text = stringsOf((definition as unknown as Record<string, unknown>)[field]).join('\n');
    if (text.length === 0) {
      continue;
    }
    for (const finding of detectPromptInjection(text)) {
      findings.push({ field, type: finding.type, score: finding.score });
    }
  }
  return findings;
}

function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') {
    return [value];
  }
  if (Array.isArray(value)) {
    return value.flatMap(stringsOf);
  }
  if (value !== null && typeof value === 'object') {
    return Object.values(value as Record<string, unknown>).flatMap(stringsOf);
  }
  return [];
}
