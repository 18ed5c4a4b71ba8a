import { Badge } from '@mantine/core';

// Dark shades: white text on each keeps WCAG AA contrast (≥ 4.5:1); Mantine's orange.9 and
// yellow.9 do not, so those two are darker.
export const WARNING_COLOR = '#a0400a';
/** Mantine's green.9 is 4.4:1 under white text (and as text on white); this green is 6:1. */
export const SUCCESS_COLOR = '#1f6f32';
const COLORS: Record<string, string> = {
  BLOCK: 'red.9',
  ERROR: 'red.9',
  HUMAN_REVIEW_REQUIRED: WARNING_COLOR,
  MASK: 'violet.9',
  WARN: '#7a5c00',
  LOG: 'gray.8',
  CRITICAL: 'red.9',
  HIGH: 'red.9',
  MEDIUM: WARNING_COLOR,
  LOW: 'gray.8',
};

/** An action (D22) or a severity, coloured by how serious it is. */
export function SeverityBadge({ value }: { value: string | null | undefined }) {
  return value ? <Badge color={COLORS[value] ?? 'gray.8'}>{value}</Badge> : null;
}
