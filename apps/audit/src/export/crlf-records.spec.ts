import { Readable } from 'node:stream';

import { CrlfRecords } from './crlf-records';

async function through(chunks: string[]): Promise<string> {
  const out: Buffer[] = [];
  for await (const chunk of Readable.from(chunks.map((c) => Buffer.from(c))).pipe(
    new CrlfRecords(),
  )) {
    out.push(chunk as Buffer);
  }
  return Buffer.concat(out).toString('utf8');
}

describe(CrlfRecords.name, () => {
  it('should end every record with CRLF when records end with LF', async () => {
    expect(await through(['a,b\n', 'c,d\n'])).toBe('a,b\r\nc,d\r\n');
  });

  it('should keep line breaks inside quoted cells when a cell spans lines', async () => {
    expect(await through(['a,"x\ny"\n'])).toBe('a,"x\ny"\r\n');
  });

  it('should carry the quote state across chunks when a quoted cell is split', async () => {
    expect(await through(['a,"x', '\n""y"\nb\n'])).toBe('a,"x\n""y"\r\nb\r\n');
  });

  it('should pass a chunk through when it ends no record', async () => {
    expect(await through(['a,"x\n', 'y",b', '\n'])).toBe('a,"x\ny",b\r\n');
  });

  it('should give the same records however the text is split into chunks', async () => {
    const text = 'id,summary\n1,"say ""hi""\nthen go"\n2,plain\n3,"a,b"\n\n4,""\n';
    const expected = 'id,summary\r\n1,"say ""hi""\nthen go"\r\n2,plain\r\n3,"a,b"\r\n\r\n4,""\r\n';
    for (let size = 1; size <= text.length; size += 1) {
      const chunks = Array.from({ length: Math.ceil(text.length / size) }, (_, i) =>
        text.slice(i * size, (i + 1) * size),
      );
      expect(await through(chunks)).toBe(expected);
    }
  });
});
