/** A catalog field that holds text (the relay's registry entries are loosely typed). */
export const text = (value: unknown): string => (typeof value === 'string' ? value : '');
