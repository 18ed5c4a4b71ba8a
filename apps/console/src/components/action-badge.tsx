import { Badge } from '@mantine/core';

// Dark shades: white text on them keeps WCAG AA contrast.
const COLORS: Record<string, string> = {
  BLOCK: 'red.9',
  ERROR: 'red.9',
  HUMAN_REVIEW_REQUIRED: 'orange.9',
  MASK: 'violet.9',
  WARN: 'yellow.9',
  LOG: 'gray.8',
  CRITICAL: 'red.9',
  HIGH: 'red.9',
  MEDIUM: 'orange.9',
  LOW: 'gray.8',
};

/** An action (D22) or a severity, coloured by how serious it is. */
export function SeverityBadge({ value }: { value: string | null | undefined }) {
  return value ? <Badge color={COLORS[value] ?? 'gray.8'}>{value}</Badge> : null;
}
