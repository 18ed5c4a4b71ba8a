import { Server } from 'node:http';
import { AddressInfo } from 'node:net';

import { HTTPFacilitatorClient } from '@x402/core/server';
import { ExactEvmScheme } from '@x402/evm/exact/server';
import { paymentMiddleware, x402ResourceServer } from '@x402/express';
import express, { Request, Response } from 'express';

/** Base Sepolia: its USDC (6 decimals) is the official packages' default asset there. */
export const NETWORK = 'eip155:84532';

/** What each paid endpoint of the agent costs (x402 `price`, USD). */
export const PRICES = { cheap: '$0.01', large: '$5.00' } as const;
export type PricedRoute = keyof typeof PRICES;

/**
 * An A2A agent whose JSON-RPC endpoints are paid with x402 by the official Express middleware
 * (`@x402/express`) against `facilitatorUrl`. `paidRequests` counts what reached the agent with a
 * payment header at all: a payment the relay refuses must never appear there.
 */
export async function startPaidAgent(
  facilitatorUrl: string,
  payTo: string,
): Promise<{
  base: string;
  paidRequests: { route: string; header: string }[];
  answered: string[];
  close(): Promise<void>;
}> {
  const paidRequests: { route: string; header: string }[] = [];
  const answered: string[] = [];
  const resourceServer = new x402ResourceServer(
    new HTTPFacilitatorClient({ url: facilitatorUrl }),
  ).register(NETWORK, new ExactEvmScheme());
  const app = express();
  app.use(express.json());
  app.get('/card/:route', (request: Request, response: Response) => {
    const base = `${request.protocol}://${request.get('host')}`;
    response.json({
      name: `paid-${String(request.params.route)}`,
      capabilities: { streaming: false },
      supportedInterfaces: [
        {
          url: `${base}/rpc/${String(request.params.route)}`,
          protocolBinding: 'JSONRPC',
          protocolVersion: '1.0',
        },
      ],
    });
  });
  app.use((request, _response, next) => {
    const header = request.get('payment-signature') ?? request.get('x-payment');
    if (header) {
      paidRequests.push({ route: request.path, header });
    }
    next();
  });
  app.use(
    paymentMiddleware(
      {
        ...Object.fromEntries(
          (Object.keys(PRICES) as PricedRoute[]).map((route) => [
            `POST /rpc/${route}`,
            {
              accepts: { scheme: 'exact', price: PRICES[route], network: NETWORK, payTo },
              description: `a ${route} answer`,
              mimeType: 'application/json',
            },
          ]),
        ),
        'POST /mcp': {
          accepts: { scheme: 'exact', price: PRICES.cheap, network: NETWORK, payTo },
          description: 'a paid tool call',
          mimeType: 'application/json',
        },
      },
      resourceServer,
    ),
  );
  // An MCP server's Streamable HTTP endpoint answering a stateless `tools/call` with JSON.
  app.post('/mcp', (request: Request, response: Response) => {
    const body = request.body as { id?: unknown };
    answered.push('mcp');
    response.json({
      jsonrpc: '2.0',
      id: body.id ?? null,
      result: { content: [{ type: 'text', text: 'a paid tool result' }] },
    });
  });
  app.post('/rpc/:route', (request: Request, response: Response) => {
    const body = request.body as { id?: unknown };
    answered.push(String(request.params.route));
    response.json({
      jsonrpc: '2.0',
      id: body.id ?? null,
      result: {
        message: {
          messageId: `answer-${answered.length}`,
          role: 'ROLE_AGENT',
          parts: [{ text: `a paid ${String(request.params.route)} answer` }],
        },
      },
    });
  });
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    paidRequests,
    answered,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
