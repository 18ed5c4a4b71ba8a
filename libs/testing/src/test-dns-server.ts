import { Socket, createSocket } from 'node:dgram';

/** A DNS server of the test's own (UDP, TXT records only), so domain verification runs node:dns for real. */
export class TestDnsServer {
  readonly txt = new Map<string, string[]>();

  private constructor(
    private readonly socket: Socket,
    readonly address: string,
  ) {}

  static async start(): Promise<TestDnsServer> {
    const socket = createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    const server = new TestDnsServer(socket, `127.0.0.1:${socket.address().port}`);
    socket.on('message', (query, peer) =>
      socket.send(server.answer(query), peer.port, peer.address),
    );
    return server;
  }

  private answer(query: Buffer): Buffer {
    let offset = 12;
    const labels: string[] = [];
    while (query[offset] > 0) {
      labels.push(query.subarray(offset + 1, offset + 1 + query[offset]).toString());
      offset += query[offset] + 1;
    }
    const questionEnd = offset + 5;
    const type = query.readUInt16BE(offset + 1);
    const records = type === 16 ? this.txt.get(labels.join('.').toLowerCase()) : undefined;
    const header = Buffer.alloc(12);
    query.copy(header, 0, 0, 2);
    header.writeUInt16BE(0x8180 | (records ? 0 : 3), 2);
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(records?.length ?? 0, 6);
    const answers = (records ?? []).map((value) => {
      const text = Buffer.from(value);
      const rr = Buffer.alloc(12);
      rr.writeUInt16BE(0xc00c, 0);
      rr.writeUInt16BE(16, 2);
      rr.writeUInt16BE(1, 4);
      rr.writeUInt32BE(60, 6);
      rr.writeUInt16BE(text.length + 1, 10);
      return Buffer.concat([rr, Buffer.from([text.length]), text]);
    });
    return Buffer.concat([header, query.subarray(12, questionEnd), ...answers]);
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.socket.close(() => resolve()));
  }
}
