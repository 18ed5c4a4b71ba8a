/** One line of PostgreSQL's COPY text format (the default of `COPY … TO STDOUT`) as its fields. */
export function copyTextFields(line: string): Array<string | null> {
  const fields: Array<string | null> = line.split('\t');
  for (let i = 0; i < fields.length; i += 1) {
    const field = fields[i] as string;
    if (field.includes('\\')) {
      fields[i] = field === '\\N' ? null : unescaped(field);
    }
  }
  return fields;
}

const BACKSLASH = 92;

function unescaped(field: string): string {
  // Every row has one such field, bytea's `\\x…`: a lone leading escaped backslash is cut, not searched.
  if (
    field.charCodeAt(0) === BACKSLASH &&
    field.charCodeAt(1) === BACKSLASH &&
    field.indexOf('\\', 2) === -1
  ) {
    return field.slice(1);
  }
  return field.replace(ESCAPED, unescapeOne);
}

const ESCAPED = /\\([\s\S])/g;
const CONTROL: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };

function unescapeOne(_match: string, escaped: string): string {
  return CONTROL[escaped] ?? escaped;
}
