import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  decodePaymentSignatureHeader,
  encodePaymentRequiredHeader,
  encodePaymentResponseHeader,
} from '@x402/core/http';
import { HTTPFacilitatorClient, x402ResourceServer } from '@x402/core/server';
import type { Network, PaymentPayload } from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm/exact/server';

import {
  PUBLIC_BASE_URL,
  X402_FACILITATOR,
  X402FacilitatorOptions,
} from '../../config/relay-config.module';
import { PerCallPrice } from '../a2a/a2a-directory';
import { PaidCall } from './paid-call';
import { X402_HEADERS } from './x402-messages';
import { JudgedPayment, PaymentCall, X402Payments } from './x402-payments';

/** How long a buyer has to pay the requirements it was given (x402 `maxTimeoutSeconds`). */
const PAY_WITHIN_SECONDS = 300;

/** PY24: what a tenant reads when the facilitator could not be used. */
export const FACILITATOR_UNAVAILABLE = 'the x402 facilitator is unavailable';

/** What the seller's side answers instead of the agent: a 402 with x402 requirements. */
export interface SaleRefused {
  status: 402;
  body: string;
  headers: Record<string, string>;
}

/**
 * payments.md PY20–PY22: the publisher's side of an installed PER_CALL listing sells each call
 * with x402 as the official resource server does (`@x402/core/server` with the exact EVM scheme,
 * against the platform's facilitator): requirements at the listing's price, the paid retry
 * verified before the agent is reached and settled after it answered. The platform is the seller
 * here, so nothing of it is the publisher's spend: the trail records it, the ledger does not.
 */
@Injectable()
export class PerCallSales {
  private readonly servers = new Map<string, Promise<x402ResourceServer>>();
  private readonly logger = new Logger(PerCallSales.name);

  constructor(
    @Inject(X402_FACILITATOR) private readonly facilitator: X402FacilitatorOptions,
    @Inject(PUBLIC_BASE_URL) private readonly publicBaseUrl: string,
    private readonly payments: X402Payments,
  ) {}

  /** PY20: the listing's requirements, kept and recorded (X402_PAYMENT_REQUIRED), as a 402. */
  async required(call: PaymentCall, price: PerCallPrice, error?: string): Promise<SaleRefused> {
    const server = await this.serverFor(price.network);
    const requirements = await server.buildPaymentRequirements({
      scheme: 'exact',
      payTo: price.payTo,
      price: `$${price.priceUsd}`,
      network: price.network as Network,
      maxTimeoutSeconds: PAY_WITHIN_SECONDS,
    });
    const required = await server.createPaymentRequiredResponse(
      requirements,
      {
        url: `${this.publicBaseUrl}/relay/v1/marketplace/listings/${price.listingId}`,
        description: `a call of marketplace listing ${price.listingId}`,
        mimeType: 'application/json',
      },
      error,
    );
    const headers = {
      'content-type': 'application/json',
      [X402_HEADERS.required]: encodePaymentRequiredHeader(required),
    };
    const body = JSON.stringify({});
    await new PaidCall(this.payments, call).required(headers, body);
    return { status: 402, body, headers };
  }

  /**
   * PY21: a judged payment is verified with the facilitator before the agent is reached; the
   * reason it is not valid, recorded as the payee's refusal, or undefined.
   */
  async verify(
    call: PaymentCall,
    price: PerCallPrice,
    judged: JudgedPayment,
  ): Promise<string | undefined> {
    await this.payments.attempted(call, judged);
    try {
      const payload = payloadOf(judged);
      const verified = await (
        await this.serverFor(price.network)
      ).verifyPayment(payload, payload.accepted);
      if (verified.isValid) {
        return undefined;
      }
      const why = verified.invalidReason ?? 'the facilitator found the payment invalid';
      await this.payments.unsettled(call, judged, `not verified: ${why}`);
      return why;
    } catch (error) {
      const why = this.unreachable('verify', error);
      await this.payments.unsettled(call, judged, `not verified: ${why}`);
      return why;
    }
  }

  /** PY21: after the agent answered, the payment is settled; the header the answer carries. */
  async settle(
    call: PaymentCall,
    price: PerCallPrice,
    judged: JudgedPayment,
  ): Promise<Record<string, string> | string> {
    let header: string;
    try {
      const payload = payloadOf(judged);
      const settled = await (
        await this.serverFor(price.network)
      ).settlePayment(payload, payload.accepted);
      header = encodePaymentResponseHeader(settled);
    } catch (error) {
      const why = this.unreachable('settle', error);
      await this.payments.unsettled(call, judged, `not settled: ${why}`);
      return why;
    }
    const headers = { [X402_HEADERS.response]: header };
    const settlement = await this.payments.received(call, judged, headers);
    return settlement?.success ? headers : (settlement?.errorReason ?? 'not settled');
  }

  /** PY22: a verified payment the call does not settle (the agent failed). */
  unsold(call: PaymentCall, judged: JudgedPayment, text: string): Promise<void> {
    return this.payments.unsettled(call, judged, `not settled: ${text}`);
  }

  /**
   * PY24: the facilitator's own failure (its URL, a stack's text) is the operator's: logged here,
   * while the tenants read a fixed reason.
   */
  unreachable(step: string, error: unknown): string {
    const detail = error instanceof Error ? error.message : String(error);
    this.logger.warn(`x402 facilitator failed to ${step}: ${detail}`);
    return FACILITATOR_UNAVAILABLE;
  }

  /** One resource server per network, its facilitator's supported kinds fetched once. */
  private serverFor(network: string): Promise<x402ResourceServer> {
    const url = this.facilitator.url;
    if (!url) {
      return Promise.reject(
        new Error('this platform has no x402 facilitator (X402_FACILITATOR_URL)'),
      );
    }
    let server = this.servers.get(network);
    if (!server) {
      const made = new x402ResourceServer(new HTTPFacilitatorClient({ url })).register(
        network as Network,
        new ExactEvmScheme(),
      );
      server = made.initialize().then(() => made);
      // A facilitator that was down is asked again on the next call.
      server.catch(() => this.servers.delete(network));
      this.servers.set(network, server);
    }
    return server;
  }
}

/** PY12: the payload is decoded only here, for the facilitator, and never kept. */
function payloadOf(judged: JudgedPayment): PaymentPayload {
  if (judged.attempt.x402Version !== 2) {
    throw new Error('a PER_CALL listing is paid with x402 version 2');
  }
  return decodePaymentSignatureHeader(judged.attempt.value);
}
