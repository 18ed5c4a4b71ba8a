import { Server } from 'node:http';
import { AddressInfo } from 'node:net';

import { HTTPFacilitatorClient } from '@x402/core/server';
import { ExactEvmScheme } from '@x402/evm/exact/server';
import { paymentMiddleware, x402ResourceServer } from '@x402/express';
import express, { NextFunction, Request, Response } from 'express';

import { NETWORK } from './paid-agent';

/** Hop-by-hop headers and those the proxy's fetch sets itself. */
const NOT_PROXIED = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'content-encoding',
  'keep-alive',
]);

export interface PaidMcpProxy {
  /** The paid server's MCP endpoint. */
  url: string;
  /** Every request that reached the server's side with a payment header. */
  paidRequests: string[];
  close(): Promise<void>;
}

/**
 * An MCP server (`target`) whose `tools/call` requests are paid with x402 by the official Express
 * middleware (`@x402/express`); its other messages (initialize, discover, lists) pass free, as a
 * server that charges per tool call would have it.
 */
export async function startPaidMcpProxy(
  target: string,
  facilitatorUrl: string,
  payTo: string,
): Promise<PaidMcpProxy> {
  const paidRequests: string[] = [];
  const resourceServer = new x402ResourceServer(
    new HTTPFacilitatorClient({ url: facilitatorUrl }),
  ).register(NETWORK, new ExactEvmScheme());
  const paid = paymentMiddleware(
    {
      'POST /mcp': {
        accepts: { scheme: 'exact', price: '$0.01', network: NETWORK, payTo },
        description: 'a paid tool call',
        mimeType: 'application/json',
      },
    },
    resourceServer,
  );
  const app = express();
  app.use(express.raw({ type: () => true, limit: '5mb' }));
  app.use((request: Request, response: Response, next: NextFunction) => {
    const header = request.get('payment-signature') ?? request.get('x-payment');
    if (header) {
      paidRequests.push(header);
    }
    return methodOf(request) === 'tools/call' ? paid(request, response, next) : next();
  });
  app.use((request: Request, response: Response) => {
    void proxy(target, request, response);
  });
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    paidRequests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function methodOf(request: Request): string | undefined {
  if (request.method !== 'POST' || !Buffer.isBuffer(request.body)) {
    return undefined;
  }
  try {
    return (JSON.parse(request.body.toString('utf8')) as { method?: string }).method;
  } catch {
    return undefined;
  }
}

/** The request to `target` as it came (payment headers dropped), its answer streamed back. */
async function proxy(target: string, request: Request, response: Response): Promise<void> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (!NOT_PROXIED.has(name) && !name.startsWith('payment-') && typeof value === 'string') {
      headers.set(name, value);
    }
  }
  const hasBody = request.method !== 'GET' && Buffer.isBuffer(request.body);
  const controller = new AbortController();
  response.on('close', () => controller.abort());
  try {
    const answer = await fetch(target, {
      method: request.method,
      headers,
      ...(hasBody ? { body: request.body as Buffer } : {}),
      signal: controller.signal,
    });
    response.status(answer.status);
    answer.headers.forEach((value, name) => {
      if (!NOT_PROXIED.has(name)) {
        response.setHeader(name, value);
      }
    });
    if (answer.body) {
      for await (const chunk of answer.body) {
        response.write(chunk);
      }
    }
    response.end();
  } catch {
    if (!response.headersSent) {
      response.status(502);
    }
    response.end();
  }
}
