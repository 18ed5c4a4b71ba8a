import { EVIDENCE_CLASSES, EVIDENCE_KINDS, EvidenceKind, MonitorEvidence } from '@agp/contracts';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';

import { toFieldErrors } from '@agp/http';

/** Issue 7: evidence that breaks its kind's required fields or enumerations is never stored. */
export function evidenceProblems(evidence: MonitorEvidence | Record<string, unknown>): string[] {
  const kind = (evidence as { kind?: unknown }).kind;
  if (typeof kind !== 'string' || !(EVIDENCE_KINDS as readonly string[]).includes(kind)) {
    return [`kind: unknown evidence kind ${String(kind)}`];
  }
  const instance = plainToInstance(EVIDENCE_CLASSES[kind as EvidenceKind], evidence);
  const errors = validateSync(instance, { whitelist: true, forbidNonWhitelisted: true });
  return toFieldErrors(errors).map((error) => `${error.field}: ${error.message}`);
}
