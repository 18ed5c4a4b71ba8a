import { DECISION_ACTIONS, DecisionAction } from '@agp/contracts';
import { JsonValue } from '@agp/rego';

import { Detection, MaskEntry, PolicyDecision } from './decision.types';
import { isDetectorName } from './detector-masks';

export type Normalized = { ok: true; decision: PolicyDecision } | { ok: false; error: string };

const LOG_DECISION: PolicyDecision = { action: 'LOG', reasons: [], mask: [], detections: [] };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** D22: undefined is LOG (POLICY.md); a wrong shape is an evaluation error, never silently LOG. */
export function normalizeDecision(value: JsonValue | undefined): Normalized {
  if (value === undefined) {
    return { ok: true, decision: LOG_DECISION };
  }
  if (!isObject(value)) {
    return { ok: false, error: 'decision is not an object' };
  }
  const action = value.action ?? 'LOG';
  if (typeof action !== 'string' || !(DECISION_ACTIONS as readonly string[]).includes(action)) {
    return {
      ok: false,
      error: `decision.action ${JSON.stringify(action)} is not one of ${DECISION_ACTIONS.join(', ')}`,
    };
  }
  const reasons = value.reasons ?? [];
  if (!Array.isArray(reasons) || !reasons.every((r) => typeof r === 'string')) {
    return { ok: false, error: 'decision.reasons must be an array of strings' };
  }
  const mask = value.mask ?? [];
  if (!Array.isArray(mask) || !mask.every(isMaskEntry)) {
    return {
      ok: false,
      error: 'decision.mask must be an array of {path, pattern?, label?, detector?, types?}',
    };
  }
  const detections = value.detections ?? [];
  if (!Array.isArray(detections) || !detections.every(isDetection)) {
    return {
      ok: false,
      error: 'decision.detections must be an array of {kind, label, path?, count?}',
    };
  }
  return {
    ok: true,
    decision: {
      action: action as DecisionAction,
      reasons: reasons,
      mask: (mask as unknown as MaskEntry[]).map(({ path, pattern, label, detector, types }) => ({
        path,
        ...(pattern !== undefined ? { pattern } : {}),
        ...(label !== undefined ? { label } : {}),
        ...(detector !== undefined ? { detector } : {}),
        ...(types !== undefined ? { types } : {}),
      })),
      detections: (detections as unknown as Detection[]).map(({ kind, label, path, count }) => ({
        kind,
        label,
        ...(path !== undefined ? { path } : {}),
        ...(count !== undefined ? { count } : {}),
      })),
    },
  };
}

function isMaskEntry(value: unknown): boolean {
  return (
    isObject(value) &&
    typeof value.path === 'string' &&
    (value.pattern === undefined || typeof value.pattern === 'string') &&
    (value.label === undefined || typeof value.label === 'string') &&
    (value.detector === undefined || isDetectorName(value.detector)) &&
    (value.types === undefined ||
      (Array.isArray(value.types) && value.types.every((t) => typeof t === 'string')))
  );
}

function isDetection(value: unknown): boolean {
  return (
    isObject(value) &&
    typeof value.kind === 'string' &&
    typeof value.label === 'string' &&
    (value.path === undefined || typeof value.path === 'string') &&
    (value.count === undefined ||
      (typeof value.count === 'number' && Number.isInteger(value.count) && value.count >= 0))
  );
}
