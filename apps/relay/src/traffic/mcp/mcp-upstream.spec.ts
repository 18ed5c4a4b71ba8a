import { LookupAddress } from 'node:dns';

import { guardedLookup } from './mcp-upstream';

function resolve(
  hostname: string,
  allowPrivate: boolean,
): Promise<{ error: Error | null; address: string | LookupAddress[] }> {
  return new Promise((done) =>
    guardedLookup({ allowPrivate })(hostname, {}, (error, address) => done({ error, address })),
  );
}

describe('guardedLookup', () => {
  it('should refuse a name that resolves to a loopback address when private egress is off (D37)', async () => {
    const sut = await resolve('localhost', false);

    expect(sut.error?.message).toMatch(/^egress refused/);
  });

  it('should resolve the same name when the operator allows private egress', async () => {
    const sut = await resolve('localhost', true);

    expect(sut.error).toBeNull();
    expect(['127.0.0.1', '::1']).toContain(sut.address);
  });
});
