import {
  decodePaymentRequiredHeader,
  decodePaymentResponseHeader,
  decodePaymentSignatureHeader,
} from '@x402/core/http';
import {
  isPaymentPayloadV1,
  isPaymentPayloadV2,
  isPaymentRequiredV1,
  isPaymentRequiredV2,
} from '@x402/core/schemas';
import type { PaymentRequirementsV2 } from '@x402/core/schemas';

/**
 * D60: x402's headers (transports-v2/http.md; v1's `X-PAYMENT` pair), lower-case as Node and
 * undici give them. Requests carry a signature, answers the requirements or the settlement.
 */
export const X402_HEADERS = {
  required: 'payment-required',
  signature: 'payment-signature',
  response: 'payment-response',
  v1Payment: 'x-payment',
  v1Response: 'x-payment-response',
} as const;

/** The headers an answer brings back to the paying agent beside the body (PY3). */
export const X402_ANSWER_HEADERS = [
  X402_HEADERS.required,
  X402_HEADERS.response,
  X402_HEADERS.v1Response,
] as const;

/** One of the ways a payee said it can be paid (one entry of `accepts`), both versions alike. */
export interface Offer {
  scheme: string;
  network: string;
  asset: string;
  /** Atomic units of `asset` (v2 `amount`, v1 `maxAmountRequired`). */
  amountAtomic: string;
  payTo: string;
  maxTimeoutSeconds: number;
  description?: string;
  /** v2 `resource.url`, v1 `resource`. */
  resource?: string;
  extra?: Record<string, unknown>;
}

/** A 402's requirements: the version spoken and what the payee accepts. */
export interface PaymentRequiredAnswer {
  x402Version: 1 | 2;
  accepts: Offer[];
  resource?: string;
  error?: string;
}

/** What a paying agent's retry says; `payload` is the credential and never leaves this module. */
export interface PaymentAttempt {
  x402Version: 1 | 2;
  /** The header it came in: the one the payee gets (PY3). */
  header: typeof X402_HEADERS.signature | typeof X402_HEADERS.v1Payment;
  /** The header's value, forwarded as it came. */
  value: string;
  scheme: string;
  network: string;
  /** v2: the requirements the agent says it accepted. */
  accepted?: Offer;
  /** The payee and amount the signed authorization names, when the scheme's payload shows them. */
  signed: { payTo?: string; amountAtomic?: string };
}

/** A settlement answer (`PAYMENT-RESPONSE`, v1 `X-PAYMENT-RESPONSE`). */
export interface Settlement {
  success: boolean;
  transaction?: string;
  network?: string;
  payer?: string;
  errorReason?: string;
  amountAtomic?: string;
}

type Headers = Record<string, string | string[] | undefined>;

function one(headers: Headers, name: string): string | undefined {
  const value = headers[name];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/**
 * PY2: a 402 is x402 when its `PAYMENT-REQUIRED` header (v2) or its JSON body (v1) is a valid
 * PaymentRequired by the official schemas; anything else is an ordinary 402.
 */
export function paymentRequiredOf(
  headers: Headers,
  body: string,
): PaymentRequiredAnswer | undefined {
  const header = one(headers, X402_HEADERS.required);
  if (header) {
    let decoded: unknown;
    try {
      decoded = decodePaymentRequiredHeader(header);
    } catch {
      return undefined;
    }
    if (!isPaymentRequiredV2(decoded)) {
      return undefined;
    }
    const resource = decoded.resource?.url;
    return {
      x402Version: 2,
      ...(resource ? { resource } : {}),
      ...(decoded.error ? { error: decoded.error } : {}),
      accepts: decoded.accepts.map((a) => ({
        ...offerOfV2(a),
        ...(decoded.resource?.description ? { description: decoded.resource.description } : {}),
        ...(resource ? { resource } : {}),
      })),
    };
  }
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (!isPaymentRequiredV1(json)) {
    return undefined;
  }
  return {
    x402Version: 1,
    ...(json.error ? { error: json.error } : {}),
    accepts: json.accepts.map((a) => ({
      scheme: a.scheme,
      network: a.network,
      asset: a.asset,
      amountAtomic: a.maxAmountRequired,
      payTo: a.payTo,
      maxTimeoutSeconds: a.maxTimeoutSeconds,
      ...(a.description ? { description: a.description } : {}),
      ...(a.resource ? { resource: a.resource } : {}),
      ...(a.extra ? { extra: a.extra } : {}),
    })),
  };
}

/** Whether a request carries a payment at all (either version's header). */
export function carriesPayment(headers: Headers): boolean {
  return (
    headers[X402_HEADERS.signature] !== undefined || headers[X402_HEADERS.v1Payment] !== undefined
  );
}

/**
 * A retry's payment, or why it is not one (PY4: refused `invalid`, never forwarded). Both headers
 * at once is ambiguous and refused too.
 */
export function paymentAttemptOf(headers: Headers): PaymentAttempt | string {
  const v2 = headers[X402_HEADERS.signature];
  const v1 = headers[X402_HEADERS.v1Payment];
  if (v2 !== undefined && v1 !== undefined) {
    return 'a request carries PAYMENT-SIGNATURE or X-PAYMENT, not both';
  }
  const header = v2 !== undefined ? X402_HEADERS.signature : X402_HEADERS.v1Payment;
  const value = v2 ?? v1;
  if (typeof value !== 'string' || value.length === 0) {
    return `${header.toUpperCase()} must be one base64-encoded payment payload`;
  }
  let decoded: unknown;
  try {
    decoded = decodePaymentSignatureHeader(value);
  } catch {
    return `${header.toUpperCase()} is not a base64-encoded JSON payment payload`;
  }
  if (header === X402_HEADERS.signature && isPaymentPayloadV2(decoded)) {
    const a = decoded.accepted;
    return {
      x402Version: 2,
      header,
      value,
      scheme: a.scheme,
      network: a.network,
      accepted: offerOfV2(a),
      signed: signedTermsOf(decoded.payload),
    };
  }
  if (header === X402_HEADERS.v1Payment && isPaymentPayloadV1(decoded)) {
    return {
      x402Version: 1,
      header,
      value,
      scheme: decoded.scheme,
      network: decoded.network,
      signed: signedTermsOf(decoded.payload),
    };
  }
  return header === X402_HEADERS.signature
    ? 'PAYMENT-SIGNATURE is not an x402 version 2 payment payload'
    : 'X-PAYMENT is not an x402 version 1 payment payload';
}

/** One v2 `PaymentRequirements` as an offer (v2 says `amount` where v1 said `maxAmountRequired`). */
function offerOfV2(a: PaymentRequirementsV2): Offer {
  return {
    scheme: a.scheme,
    network: a.network,
    asset: a.asset,
    amountAtomic: a.amount,
    payTo: a.payTo,
    maxTimeoutSeconds: a.maxTimeoutSeconds,
    ...(a.extra ? { extra: a.extra } : {}),
  };
}

/**
 * PY5: the payee and amount inside the signed part of the payload: EIP-3009 `authorization`
 * (exact on EVM), or Permit2's witness `to` and permitted `amount`.
 */
function signedTermsOf(payload: Record<string, unknown>): PaymentAttempt['signed'] {
  const authorization = objectOf(payload.authorization);
  if (authorization) {
    return {
      ...(typeof authorization.to === 'string' ? { payTo: authorization.to } : {}),
      ...(typeof authorization.value === 'string' ? { amountAtomic: authorization.value } : {}),
    };
  }
  const permit = objectOf(payload.permit2Authorization);
  const witness = objectOf(permit?.witness);
  const permitted = objectOf(permit?.permitted);
  if (witness) {
    return {
      ...(typeof witness.to === 'string' ? { payTo: witness.to } : {}),
      ...(typeof permitted?.amount === 'string' ? { amountAtomic: permitted.amount } : {}),
    };
  }
  return {};
}

/** The settlement an answer carries (v2 header first), or undefined when it carries none. */
export function settlementOf(headers: Headers): Settlement | undefined {
  const value = one(headers, X402_HEADERS.response) ?? one(headers, X402_HEADERS.v1Response);
  if (!value) {
    return undefined;
  }
  let decoded: unknown;
  try {
    decoded = decodePaymentResponseHeader(value);
  } catch {
    return { success: false, errorReason: 'the settlement header is not base64-encoded JSON' };
  }
  const answer = objectOf(decoded);
  if (!answer || typeof answer.success !== 'boolean') {
    return { success: false, errorReason: 'the settlement header is not a settlement response' };
  }
  const text = (key: string): string | undefined => {
    const value = answer[key];
    return typeof value === 'string' && value !== '' ? value : undefined;
  };
  const transaction = text('transaction');
  const network = text('network');
  const payer = text('payer');
  const errorReason = text('errorReason') ?? text('errorMessage');
  const amountAtomic = text('amount');
  return {
    success: answer.success,
    ...(transaction ? { transaction } : {}),
    ...(network ? { network } : {}),
    ...(payer ? { payer } : {}),
    ...(errorReason ? { errorReason } : {}),
    ...(amountAtomic ? { amountAtomic } : {}),
  };
}

/** The x402 headers of an upstream answer, to hand back to the paying agent unchanged (PY3). */
export function x402AnswerHeaders(headers: Headers): Record<string, string> {
  const carried: Record<string, string> = {};
  for (const name of X402_ANSWER_HEADERS) {
    const value = one(headers, name);
    if (value) {
      carried[name] = value;
    }
  }
  return carried;
}

function objectOf(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}
