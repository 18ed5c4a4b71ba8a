import { DETECTORS, DetectorName, maskFindings } from '@agp/guardrails';

import { MaskEntry } from './decision.types';

export const DETECTOR_NAMES = Object.keys(DETECTORS) as DetectorName[];

export function isDetectorName(value: unknown): value is DetectorName {
  return typeof value === 'string' && (DETECTOR_NAMES as string[]).includes(value);
}

/**
 * GR8: a mask `{path, detector, types?}` runs the engine over each string at the path and replaces
 * each finding's span by `[MASKED:<type>]`; `types` narrows it to those finding types. Undefined for
 * masks without a detector (they replace by path or pattern).
 */
export function detectorReplacer(mask: MaskEntry): ((text: string) => string) | undefined {
  if (!mask.detector) {
    return undefined;
  }
  const { detect } = DETECTORS[mask.detector];
  const types = mask.types ? new Set(mask.types) : undefined;
  return (text) => {
    const found = detect(text);
    return maskFindings(text, types ? found.filter((f) => types.has(f.type)) : found);
  };
}
