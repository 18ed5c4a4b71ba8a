import { Finding } from './finding';

const KEPT_TEXTS = 16;

/** GR12: each bound policy and the masks rescan one hop's text; pure results are safe to share. */
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
