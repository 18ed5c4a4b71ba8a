import { BEYOND_SPECIFICATION } from '@agp/contracts';

/** The extension that names the values of an enum the specification does not list (D42). */
export const BEYOND_SPECIFICATION_EXTENSION = 'x-beyond-specification';

/**
 * Marks every schema of `document` whose `enum` holds a value the platform adds to the
 * specification's value sets (`ADMIN_CHANGE`, D42): `x-beyond-specification` maps each such value
 * to the decision that adds it, and the schema's description says so to a reader of the document.
 */
export function markBeyondSpecification(document: unknown): void {
  if (Array.isArray(document)) {
    document.forEach(markBeyondSpecification);
    return;
  }
  if (document === null || typeof document !== 'object') {
    return;
  }
  const schema = document as Record<string, unknown>;
  if (Array.isArray(schema.enum)) {
    const added = schema.enum.filter(
      (value): value is string => typeof value === 'string' && value in BEYOND_SPECIFICATION,
    );
    if (added.length > 0) {
      schema[BEYOND_SPECIFICATION_EXTENSION] = Object.fromEntries(
        added.map((value) => [value, BEYOND_SPECIFICATION[value]]),
      );
      const note = `${added.join(', ')}: beyond the specification (${added.map((value) => BEYOND_SPECIFICATION[value]).join(' ')})`;
      schema.description = [schema.description, note].filter(Boolean).join('\n\n');
    }
  }
  Object.values(schema).forEach(markBeyondSpecification);
}
