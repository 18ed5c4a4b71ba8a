import { compilePolicy } from '@agp/rego';

import { applyMasks, textOf } from '../decisions/apply-masks';
import { normalizeDecision } from '../decisions/normalize-decision';
import { initialMessage } from '../evaluation-packs/simulate-evaluation';
import { GUARDRAIL_PRESETS } from './presets';

// Each preset's own evaluation pack, run against its policy without a database: the installed
// pack must pass on the day it is installed.
describe('guardrail presets (GR11)', () => {
  const cases = GUARDRAIL_PRESETS.flatMap((preset) =>
    preset.evaluations.flatMap((evaluation) =>
      evaluation.hops.map((hop) => ({ preset, evaluation, hop })),
    ),
  );

  it.each(cases.map((c) => [`${c.preset.name}: ${c.evaluation.name}`, c] as const))(
    '%s',
    (_name, { preset, evaluation, hop }) => {
      const pkg = /package (\S+)/.exec(preset.regoSource)![1];
      const policy = compilePolicy({ 'p.rego': preset.regoSource });
      const json = initialMessage(evaluation.input);
      const value = policy.evaluateRule(`data.${pkg}.decision`, {
        input: { message: { text: textOf(json), json }, direction: hop.direction },
      });
      const normalized = normalizeDecision(value);
      if (!normalized.ok) {
        throw new Error(normalized.error);
      }
      expect(normalized.decision.action).toBe(hop.expectedAction);
      const masked = textOf(applyMasks(json, normalized.decision.mask).json);
      for (const p of hop.expectedPatterns ?? []) {
        expect([p.label, new RegExp(p.pattern).test(masked)]).toEqual([
          p.label,
          p.mode === 'MUST_MATCH',
        ]);
      }
      // GR9: detections carry types and counts only.
      for (const d of normalized.decision.detections) {
        expect(Object.keys(d).sort()).toEqual(['count', 'kind', 'label']);
      }
    },
  );
});
