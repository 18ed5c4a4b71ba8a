import { DETECTORS, DetectorName, maskFindings } from '@agp/guardrails';

import { MaskEntry } from './decision.types';

export const DETECTOR_NAMES = Object.keys(DETECTORS) as DetectorName[];

export function isDetectorName(value: unknown): value is DetectorName {
  return typeof value === 'string' && (DETECTOR_NAMES as string[]).includes(value);
}

/** GR8: `[MASKED:<type>]` per finding; undefined for masks without a detector. */
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
