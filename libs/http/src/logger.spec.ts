import { Writable } from 'node:stream';

import { createLogger } from './logger';

function capture(): { lines: string[]; destination: Writable } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { lines, destination };
}

describe('createLogger', () => {
  it('should never write a token or an x402 payment payload of a request line (payments.md PY12)', async () => {
    const { lines, destination } = capture();
    const sut = createLogger({ service: 'test', level: 'info', destination });

    sut.info(
      {
        req: {
          headers: {
            authorization: 'Bearer secret-token',
            'payment-signature': 'eyJ4NDAyVmVyc2lvbiI6Mn0=',
            'x-payment': 'eyJ4NDAyVmVyc2lvbiI6MX0=',
            'content-type': 'application/json',
          },
        },
      },
      'request completed',
    );
    await new Promise((resolve) => setImmediate(resolve));

    const line = lines.join('');
    expect(line).toContain('application/json');
    expect(line).not.toContain('secret-token');
    expect(line).not.toContain('eyJ4NDAyVmVyc2lvbiI6Mn0=');
    expect(line).not.toContain('eyJ4NDAyVmVyc2lvbiI6MX0=');
    expect(JSON.parse(line).req.headers).toMatchObject({
      'payment-signature': '[REDACTED]',
      'x-payment': '[REDACTED]',
    });
  });
});
