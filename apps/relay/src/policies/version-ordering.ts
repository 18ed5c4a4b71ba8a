/** R4: a version is 1–4 dot-separated non-negative integers (`1`, `1.2`, `2026.11.3`). */
export const VERSION_PATTERN = /^\d{1,9}(\.\d{1,9}){0,3}$/;

const SEGMENTS = 4;

function segmentsOf(version: string): number[] {
  const parts = version.split('.').map((part) => Number.parseInt(part, 10));
  return [...parts, ...new Array<number>(SEGMENTS - parts.length).fill(0)];
}

export function compareVersions(a: string, b: string): number {
  const left = segmentsOf(a);
  const right = segmentsOf(b);
  for (let i = 0; i < SEGMENTS; i += 1) {
    const difference = (left[i] ?? 0) - (right[i] ?? 0);
    if (difference !== 0) {
      return difference;
    }
  }
  return 0;
}

/** A key whose text order is the version order, so the database can sort and compare versions. */
export function versionSortKey(version: string): string {
  return segmentsOf(version)
    .map((segment) => segment.toString().padStart(9, '0'))
    .join('.');
}

/** The version given to a new version when the caller names none: the last segment plus one. */
export function nextVersion(latest: string | undefined): string {
  if (!latest) {
    return '1';
  }
  const parts = latest.split('.');
  const last = Number.parseInt(parts[parts.length - 1] ?? '0', 10);
  return [...parts.slice(0, -1), String(last + 1)].join('.');
}
