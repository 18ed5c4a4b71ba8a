import { HttpProblem } from '@agp/http';

import { listedServerJson, servedServerJson } from './listing-documents';
import { decodeOffsetCursor, encodeOffsetCursor } from './marketplace.exception';

describe('listing documents', () => {
  it('should keep server.json without where the publisher runs it (MK3, MK4)', () => {
    const sut = listedServerJson(
      {
        name: 'io.example/ledger',
        description: 'ledger tools',
        version: '1.2.0',
        remotes: [{ type: 'streamable-http', url: 'https://internal.example/mcp' }],
        packages: [{ registryType: 'npm', identifier: 'ledger' }],
      },
      { name: 'ledger' },
    );

    expect(sut).toEqual({
      $schema: expect.stringContaining('server.schema.json'),
      name: 'io.example/ledger',
      description: 'ledger tools',
      version: '1.2.0',
    });
    expect(servedServerJson(sut, 'http://agp.test/relay/mcp/x').remotes).toEqual([
      { type: 'streamable-http', url: 'http://agp.test/relay/mcp/x' },
    ]);
  });

  it('should refuse a server.json without its required fields, naming each (D12)', () => {
    let refused: unknown;
    try {
      listedServerJson({ name: 'no-namespace', version: '' }, { name: 'x' });
    } catch (error) {
      refused = error;
    }

    expect(refused).toBeInstanceOf(HttpProblem);
    expect((refused as HttpProblem).errors?.map((f) => f.field).sort()).toEqual([
      'serverJson.description',
      'serverJson.name',
      'serverJson.version',
    ]);
  });

  it('should give back the offset a cursor was made of, and refuse any other cursor', () => {
    expect(decodeOffsetCursor(encodeOffsetCursor(150))).toBe(150);
    expect(decodeOffsetCursor(undefined)).toBe(0);
    expect(() => decodeOffsetCursor('bm90LWpzb24')).toThrow('cursor is not one this API gave out');
  });
});
