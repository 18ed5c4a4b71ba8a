import { Readable } from 'node:stream';

import { CrlfRecords } from './crlf-records';

async function through(chunks: string[]): Promise<string> {
  const out: Buffer[] = [];
  for await (const chunk of Readable.from(chunks.map((c) => Buffer.from(c))).pipe(new CrlfRecords())) {
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
});
