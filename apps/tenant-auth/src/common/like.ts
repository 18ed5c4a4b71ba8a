/** A user's search text as an ILIKE pattern that matches it literally anywhere. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[%_\\]/g, '\\$&')}%`;
}

/** PostgreSQL's unique_violation, for 409 on a duplicate name. */
export function isUniqueViolation(error: unknown): boolean {
  return (
    (error as { code?: unknown } | null)?.code === '23505' ||
    (error as { driverError?: { code?: unknown } } | null)?.driverError?.code === '23505'
  );
}
