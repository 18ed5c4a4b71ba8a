import { MessageDirection } from '@agp/contracts';
import {
  CompiledSetPattern,
  PatternMode,
  PatternSetFinding,
  compileLinear,
  detectPatternSet,
} from '@agp/guardrails';
import { PatternSets } from '@agp/rego';

import { Detection } from './decision.types';

/** What the decision cache keeps of one stored pattern (D53). */
export interface PatternSource {
  set: string;
  label: string;
  pattern: string;
  flags: string;
  mode: PatternMode;
  scope: 'ALL' | 'REQUEST' | 'RESPONSE';
}

type ScopedPattern = CompiledSetPattern & { scope: PatternSource['scope'] };

/** The detection kind pattern findings are reported under: REGEX_DETECTION (D25, GR18). */
export const PATTERN_DETECTION_KIND = 'REGEX';

/** GR17: a tenant's sets compiled once per cache load, on the linear-time engine (GR13). */
export class TenantPatternSets {
  private constructor(private readonly sets: ReadonlyMap<string, readonly ScopedPattern[]>) {}

  static readonly NONE = new TenantPatternSets(new Map());

  /** A stored pattern the engine no longer accepts is left out (it was accepted when stored). */
  static compile(sources: readonly PatternSource[]): TenantPatternSets {
    const sets = new Map<string, ScopedPattern[]>();
    for (const source of sources) {
      const compiled = compileLinear(source.pattern, source.flags);
      if (compiled.ok) {
        const list = sets.get(source.set) ?? [];
        list.push({
          label: source.label,
          regex: compiled.regex,
          mode: source.mode,
          scope: source.scope,
          ...(compiled.literal ? { literal: compiled.literal } : {}),
        });
        sets.set(source.set, list);
      }
    }
    return sets.size === 0 ? TenantPatternSets.NONE : new TenantPatternSets(sets);
  }

  /** GR15: the patterns whose scope takes in this hop's direction. */
  forHop(direction: MessageDirection): HopPatternSets {
    return new HopPatternSets((name) =>
      this.sets.get(name)?.filter((p) => p.scope === 'ALL' || p.scope === direction),
    );
  }
}

/**
 * One hop's view of the sets: every bound policy may ask for the same set and text, so each pair
 * is scanned once, and what was found is counted once for the audit (GR18).
 */
export class HopPatternSets implements PatternSets {
  private readonly scanned = new Map<string, { set: string; found: PatternSetFinding[] }>();

  constructor(
    private readonly patternsOf: (name: string) => readonly CompiledSetPattern[] | undefined,
  ) {}

  findings(name: string, text: string): PatternSetFinding[] {
    const key = `${name}\u0000${text}`;
    let entry = this.scanned.get(key);
    if (!entry) {
      const patterns = this.patternsOf(name);
      entry = { set: name, found: patterns ? detectPatternSet(text, patterns) : [] };
      this.scanned.set(key, entry);
    }
    return entry.found.map((f) => ({ ...f }));
  }

  /** GR18: one detection per set and label found, with its mode and count; never the text. */
  detections(): Detection[] {
    const counted = new Map<string, Detection>();
    for (const { set, found } of this.scanned.values()) {
      for (const f of found) {
        const key = `${set}\u0000${f.type}`;
        const known = counted.get(key);
        if (known) {
          known.count = (known.count ?? 0) + 1;
        } else {
          counted.set(key, {
            kind: PATTERN_DETECTION_KIND,
            label: f.type,
            count: 1,
            set,
            mode: f.mode,
          });
        }
      }
    }
    return [...counted.values()];
  }
}

/**
 * GR18: what `agp.detect.patterns` found is reported whether or not a policy repeats it; a label
 * a policy already reported as a regex detection (D22 `detections`) is not counted twice.
 */
export function withPatternDetections(policies: Detection[], found: Detection[]): Detection[] {
  if (found.length === 0) {
    return policies;
  }
  const reported = new Set(
    policies.filter((d) => /REGEX|PATTERN/i.test(d.kind)).map((d) => d.label),
  );
  return [...policies, ...found.filter((d) => !reported.has(d.label))];
}
