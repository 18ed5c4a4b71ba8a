import { Finding, detectPii, detectPromptInjection, detectSecrets } from '@agp/guardrails';

import { fromJson } from '../values/json';
import { Value } from '../values/value';
import { def, str } from './helpers';
import { BuiltinDef } from './types';

// D50's guardrail built-ins (E16): the engines of @agp/guardrails, findings `{type, start, end,
// score}` sorted by start.

/** A finding as policies see it: every member of OPA's notation in AGP_DETECT_DECLS. */
function findingsValue(findings: Finding[]): Value {
  return fromJson(findings.map(({ type, start, end, score }) => ({ type, start, end, score })));
}

/** One scan per text and evaluation (a policy often asks in several rules), charged by length. */
function detector(name: string, detect: (text: string) => Finding[]): BuiltinDef {
  return def(name, 1, ([text], ctx) => {
    const value = str(text, 1);
    return ctx.once(`${name}\u0000${value}`, () => {
      ctx.tick(Math.ceil(value.length / 64));
      return findingsValue(detect(value));
    });
  });
}

export const AGP_DETECT_BUILTINS: BuiltinDef[] = [
  detector('agp.detect.pii', detectPii),
  detector('agp.detect.secrets', detectSecrets),
  detector('agp.detect.prompt_injection', detectPromptInjection),
  def('agp.detect.patterns', 2, ([text, set], ctx) => {
    const value = str(text, 1);
    const name = str(set, 2);
    return ctx.once(`agp.detect.patterns\u0000${name}\u0000${value}`, () => {
      ctx.tick(Math.ceil(value.length / 64));
      return fromJson(ctx.patternFindings(name, value).map((f) => ({ ...f })));
    });
  }),
];

const FINDINGS = 'array[object<end: number, score: number, start: number, type: string>]';

/** Their types, in OPA's notation (read by the type checker beside BUILTIN_DECLS). */
export const AGP_DETECT_DECLS: Record<string, string> = {
  'agp.detect.pii': `(text: string) => findings: ${FINDINGS}`,
  'agp.detect.secrets': `(text: string) => findings: ${FINDINGS}`,
  'agp.detect.prompt_injection': `(text: string) => findings: ${FINDINGS}`,
  'agp.detect.patterns': `(text: string, set: string) => findings: array[object<end: number, mode: string, score: number, start: number, type: string>]`,
};
