import { AddressInfo } from 'node:net';

import { ParsedMail, simpleParser } from 'mailparser';
import { generate } from 'selfsigned';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** Whether the session had been upgraded with STARTTLS before the message was sent. */
  isSecure: boolean;
  /** The user name the client authenticated as, when it did. */
  user?: string;
  envelopeTo: string[];
  parsed: ParsedMail;
}

/**
 * A real SMTP server for a test (the `smtp-server` package): STARTTLS offered with a self-signed
 * certificate for `localhost` made here, AUTH PLAIN/LOGIN accepted only after STARTTLS (the
 * package's default) and only for the credentials given, every message parsed with `mailparser`.
 */
export class SmtpTestServer {
  private constructor(
    /** Every message accepted, in order. */
    readonly received: ReceivedMail[],
    private readonly server: SMTPServer,
    /** The certificate's PEM: what the relay is told to trust (NOTIFICATION_SMTP_CA_FILE). */
    readonly certificatePem: string,
  ) {}

  static async start(credentials: { user: string; password: string }): Promise<SmtpTestServer> {
    const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
      keySize: 2048,
      extensions: [
        { name: 'basicConstraints', cA: true },
        { name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }] },
      ],
    });
    const received: ReceivedMail[] = [];
    const server = new SMTPServer({
      key: pems.private,
      cert: pems.cert,
      banner: 'agp test smtp',
      onAuth(auth, _session, callback) {
        if (auth.username === credentials.user && auth.password === credentials.password) {
          callback(null, { user: auth.username });
        } else {
          callback(new Error('Invalid username or password'));
        }
      },
      onData(stream, session, callback) {
        simpleParser(stream)
          .then((parsed) => {
            received.push({
              isSecure: session.secure,
              user: typeof session.user === 'string' ? session.user : undefined,
              envelopeTo: session.envelope.rcptTo.map((to) => to.address),
              parsed,
            });
            callback();
          })
          .catch((error: Error) => callback(error));
      },
    });
    const self = new SmtpTestServer(received, server, pems.cert);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return self;
  }

  get port(): number {
    return (this.server.server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
