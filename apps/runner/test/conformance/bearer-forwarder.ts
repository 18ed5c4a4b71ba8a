import { IncomingMessage, Server, ServerResponse, createServer, request } from 'node:http';
import { AddressInfo } from 'node:net';

export interface BearerForwarder {
  url: string;
  close(): Promise<void>;
}

/**
 * The conformance CLI has no option for a request header, and the relay answers no request
 * without the agent's token (D8): this forwards every request to `target` as it came, streams
 * included, adding `Authorization: Bearer <token>`. Nothing else is changed either way.
 */
export async function startBearerForwarder(
  target: string,
  token: string,
): Promise<BearerForwarder> {
  const upstream = new URL(target);
  const forward = (incoming: IncomingMessage, outgoing: ServerResponse): void => {
    const headers = { ...incoming.headers, authorization: `Bearer ${token}` };
    const proxied = request(upstream, { method: incoming.method, headers }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    proxied.on('error', () => outgoing.destroy());
    outgoing.on('close', () => proxied.destroy());
    incoming.pipe(proxied);
  };
  const server: Server = createServer(forward);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
