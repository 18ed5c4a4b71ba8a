import { endsWithReadyForQuery, frontOf } from './wire-frames';

function typed(type: string, body: Buffer = Buffer.alloc(0)): Buffer {
  const header = Buffer.alloc(5);
  header.write(type, 0);
  header.writeInt32BE(4 + body.length, 1);
  return Buffer.concat([header, body]);
}

function untyped(code: number, body: Buffer = Buffer.alloc(0)): Buffer {
  const header = Buffer.alloc(8);
  header.writeInt32BE(8 + body.length, 0);
  header.writeInt32BE(code, 4);
  return Buffer.concat([header, body]);
}

const PROTOCOL_3 = 196608;

describe('wire frames', () => {
  it('should tell the startup packet from an encryption or cancel request', () => {
    const startup = untyped(PROTOCOL_3, Buffer.from('user\0postgres\0\0'));

    expect(frontOf(startup, false)).toEqual({ kind: 'startup', length: startup.length });
    expect(frontOf(untyped(80877103), false)).toEqual({ kind: 'encryption-request', length: 8 });
    expect(frontOf(untyped(80877102, Buffer.alloc(8)), false)).toEqual({ kind: 'close' });
    expect(frontOf(startup.subarray(0, startup.length - 1), false)).toEqual({ kind: 'none' });
  });

  it('should take every whole message and leave a partial one when the session started', () => {
    const whole = Buffer.concat([typed('P', Buffer.from('\0SELECT 1\0\0\0')), typed('S')]);
    const partial = typed('Q', Buffer.from('SELECT 2\0')).subarray(0, 7);

    expect(frontOf(Buffer.concat([whole, partial]), true)).toEqual({
      kind: 'messages',
      length: whole.length,
      terminate: false,
    });
    expect(frontOf(partial, true)).toEqual({ kind: 'none' });
  });

  it('should close a client when a length is shorter than any message', () => {
    const broken = Buffer.from([0x51, 0, 0, 0, 2]);

    expect(frontOf(broken, true)).toEqual({ kind: 'close' });
    expect(frontOf(Buffer.from([0, 0, 0, 3]), false)).toEqual({ kind: 'close' });
  });

  it('should stop at a Terminate when a client ends', () => {
    const sync = typed('S');

    expect(frontOf(Buffer.concat([sync, typed('X')]), true)).toEqual({
      kind: 'messages',
      length: sync.length,
      terminate: true,
    });
  });

  it('should see a cycle end only when ReadyForQuery is the last whole message', () => {
    const ready = typed('Z', Buffer.from('I'));
    const complete = typed('C', Buffer.from('SELECT 1\0'));

    expect(endsWithReadyForQuery(Buffer.concat([complete, ready]))).toBe(true);
    expect(endsWithReadyForQuery(Buffer.concat([ready, complete]))).toBe(false);
    expect(endsWithReadyForQuery(Buffer.concat([ready, complete.subarray(0, 3)]))).toBe(false);
    expect(endsWithReadyForQuery(Buffer.alloc(0))).toBe(false);
  });
});
