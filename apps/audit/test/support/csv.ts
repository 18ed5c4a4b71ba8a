/**
 * A strict RFC 4180 reader for the tests: records end with CRLF, quoted cells may hold commas,
 * doubled quotes and line breaks. Throws on anything else, so a malformed export fails the test.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let cell = '';
  let i = 0;
  while (i < text.length) {
    if (text[i] === '"') {
      i += 1;
      for (;;) {
        if (i >= text.length) {
          throw new Error('unterminated quoted cell');
        }
        if (text[i] === '"' && text[i + 1] === '"') {
          cell += '"';
          i += 2;
        } else if (text[i] === '"') {
          i += 1;
          break;
        } else {
          cell += text[i];
          i += 1;
        }
      }
    } else {
      while (i < text.length && text[i] !== ',' && text[i] !== '\r' && text[i] !== '\n') {
        if (text[i] === '"') {
          throw new Error(`quote inside an unquoted cell at ${i}`);
        }
        cell += text[i];
        i += 1;
      }
    }
    if (text[i] === ',') {
      record.push(cell);
      cell = '';
      i += 1;
    } else if (text[i] === '\r' && text[i + 1] === '\n') {
      record.push(cell);
      records.push(record);
      record = [];
      cell = '';
      i += 2;
    } else if (i < text.length) {
      throw new Error(`bare line break or stray character at ${i}`);
    }
  }
  if (cell !== '' || record.length > 0) {
    throw new Error('last record does not end with CRLF');
  }
  return records;
}
