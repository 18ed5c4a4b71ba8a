import { Server } from 'node:http';
import { AddressInfo } from 'node:net';

import { HTTPFacilitatorClient } from '@x402/core/server';
import { ExactEvmScheme } from '@x402/evm/exact/server';
import { paymentMiddleware, x402ResourceServer } from '@x402/express';
import express, { Request, Response } from 'express';

import { NETWORK } from './paid-agent';

/** What one chat completion costs at the paid provider (x402 `price`, USD). */
export const COMPLETION_PRICE = '$0.01';

export interface PaidLlmProvider {
  /** The provider's OpenAI base URL (what the relay's provider registry takes). */
  baseUrl: string;
  /** Every request that reached the provider with a payment header, whatever it was. */
  paidRequests: { model: string; header: string }[];
  /** The models of the completions it answered. */
  answered: string[];
  close(): Promise<void>;
}

/**
 * An OpenAI-compatible provider whose `POST /v1/chat/completions` is paid with x402 by the official
 * Express middleware (`@x402/express`) against `facilitatorUrl`, when `isPaid`; otherwise a free
 * one. It answers whole completions and streams (with the usage chunk), with usage counted.
 */
export async function startPaidLlmProvider(
  facilitatorUrl: string,
  payTo: string,
  isPaid = true,
): Promise<PaidLlmProvider> {
  const paidRequests: PaidLlmProvider['paidRequests'] = [];
  const answered: string[] = [];
  const app = express();
  app.use(express.json());
  app.use((request, _response, next) => {
    const header = request.get('payment-signature') ?? request.get('x-payment');
    if (header) {
      const body = request.body as { model?: unknown };
      paidRequests.push({ model: String(body.model), header });
    }
    next();
  });
  if (isPaid) {
    const resourceServer = new x402ResourceServer(
      new HTTPFacilitatorClient({ url: facilitatorUrl }),
    ).register(NETWORK, new ExactEvmScheme());
    app.use(
      paymentMiddleware(
        {
          'POST /v1/chat/completions': {
            accepts: { scheme: 'exact', price: COMPLETION_PRICE, network: NETWORK, payTo },
            description: 'a paid completion',
            mimeType: 'application/json',
          },
        },
        resourceServer,
      ),
    );
  }
  app.post('/v1/chat/completions', (request: Request, response: Response) => {
    const body = request.body as { model: string; stream?: boolean };
    answered.push(body.model);
    const usage = { prompt_tokens: 12, completion_tokens: 4, total_tokens: 16 };
    const base = { id: `chatcmpl-${answered.length}`, created: 0, model: body.model };
    if (body.stream) {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (data: unknown): boolean => response.write(`data: ${JSON.stringify(data)}\n\n`);
      chunk({
        ...base,
        object: 'chat.completion.chunk',
        choices: [{ index: 0, delta: { role: 'assistant', content: 'a paid answer' } }],
      });
      chunk({
        ...base,
        object: 'chat.completion.chunk',
        choices: [{ index: 0, delta: {}, finish_reason: 'stop' }],
      });
      chunk({ ...base, object: 'chat.completion.chunk', choices: [], usage });
      response.end('data: [DONE]\n\n');
      return;
    }
    response.json({
      ...base,
      object: 'chat.completion',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'a paid answer' },
          finish_reason: 'stop',
        },
      ],
      usage,
    });
  });
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    paidRequests,
    answered,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
