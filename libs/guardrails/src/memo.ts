import { Finding } from './finding';

const KEPT_TEXTS = 16;

/**
 * GR12: the last few texts' findings, per engine. One hop's text is scanned by every bound policy
 * that asks (each evaluation is separate) and again when its masks are applied; a pure function's
 * recent results are safe to share, and no replica can disagree with them.
 */
export function memoized(detect: (text: string) => Finding[]): (text: string) => Finding[] {
  const recent = new Map<string, Finding[]>();
  return (text) => {
    const hit = recent.get(text);
    if (hit) {
      return hit.map((f) => ({ ...f }));
    }
    const found = detect(text);
    recent.set(text, found);
    if (recent.size > KEPT_TEXTS) {
      recent.delete(recent.keys().next().value as string);
    }
    return found.map((f) => ({ ...f }));
  };
}
