/**
 * One line of PostgreSQL's COPY text format (the default of `COPY … TO STDOUT`) as its fields:
 * tab-separated, `\N` for NULL, and a backslash before a backslash, the tab, line breaks and the
 * other control characters COPY TO escapes. Each field is then the text the query protocol carries.
 */
export function copyTextFields(line: string): Array<string | null> {
  const fields: Array<string | null> = line.split('\t');
  for (let i = 0; i < fields.length; i += 1) {
    const field = fields[i] as string;
    if (field.includes('\\')) {
      fields[i] = field === '\\N' ? null : field.replace(ESCAPED, unescapeOne);
    }
  }
  return fields;
}

const ESCAPED = /\\([\s\S])/g;
const CONTROL: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };

function unescapeOne(_match: string, escaped: string): string {
  return CONTROL[escaped] ?? escaped;
}
