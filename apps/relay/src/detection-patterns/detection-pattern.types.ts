import { PatternMode } from '@agp/guardrails';

export const PATTERN_MODES = ['DETECT', 'MUST_NOT_MATCH'] as const satisfies readonly PatternMode[];
/** GR15: which hops' evaluations see the pattern in its set. */
export const PATTERN_SCOPES = ['ALL', 'REQUEST', 'RESPONSE'] as const;
export type PatternScope = (typeof PATTERN_SCOPES)[number];

/** A set's name: what a policy passes to `agp.detect.patterns(text, set)` (D53). */
export const SET_NAME = /^[a-z0-9][a-z0-9_.-]{0,63}$/;
/** A label: the finding's `type` (D53), written like the engines' own types. */
export const LABEL = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

/** One row of `relay.detection_patterns`. */
export interface StoredDetectionPattern {
  id: string;
  tenantId: string;
  set: string;
  label: string;
  pattern: string;
  flags: string;
  mode: PatternMode;
  scope: PatternScope;
  createdAt: string;
  updatedAt: string;
}

/** A tenant pattern as the API answers it (D53). */
export interface DetectionPatternResponse {
  id: string;
  set: string;
  label: string;
  pattern: string;
  flags: string;
  mode: PatternMode;
  scope: PatternScope;
  createdAt: string;
  updatedAt: string;
}

/** D42: the kind of resource an ADMIN_CHANGE of a pattern names (what the decision cache hears). */
export const DETECTION_PATTERN_KIND = 'DETECTION_PATTERN';
