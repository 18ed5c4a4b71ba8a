import { parseDecimal } from './usd';

/** What prices a model (D60), in decimal USD per million tokens. */
export interface TokenPrices {
  inputPerMillion: string;
  outputPerMillion: string;
  /** Absent: cached prompt tokens cost what the others do. */
  cachedInputPerMillion?: string | null;
}

/** A call's token counts; `cachedTokens` are inside `promptTokens`, as OpenAI counts them (D60). */
export interface CountedTokens {
  promptTokens?: number;
  completionTokens?: number;
  cachedTokens?: number;
}

/** Six decimals per million tokens keeps every cost a whole number of pico-dollars (SP2). */
export const PRICE_DECIMALS = 6;
const PER_MILLION = 1_000_000n;

function tokens(value: number | undefined): bigint {
  return value !== undefined && Number.isSafeInteger(value) && value > 0 ? BigInt(value) : 0n;
}

function priceOf(value: string): bigint {
  const pico = parseDecimal(value, PRICE_DECIMALS);
  if (pico === undefined) {
    throw new Error(`not a price: ${value}`);
  }
  return pico;
}

/** SP3: the exact cost of a call in pico-dollars; cached tokens at their own price when set. */
export function costOf(prices: TokenPrices, counted: CountedTokens): bigint {
  const prompt = tokens(counted.promptTokens);
  const cached = tokens(counted.cachedTokens) > prompt ? prompt : tokens(counted.cachedTokens);
  const input = priceOf(prices.inputPerMillion);
  const cachedPrice = prices.cachedInputPerMillion ? priceOf(prices.cachedInputPerMillion) : input;
  const picoPerMillion =
    (prompt - cached) * input +
    cached * cachedPrice +
    tokens(counted.completionTokens) * priceOf(prices.outputPerMillion);
  return picoPerMillion / PER_MILLION;
}

/** SP7: output tokens assumed when a request sets no `max_completion_tokens` or `max_tokens`. */
export const DEFAULT_OUTPUT_ESTIMATE = 1024;

/**
 * SP7: what a request may cost before a provider says: its messages at four bytes a token
 * (OpenAI's rule of thumb), and the output it allows itself.
 */
export function estimatedTokens(request: {
  messages: unknown;
  max_tokens?: unknown;
  max_completion_tokens?: unknown;
}): { promptTokens: number; completionTokens: number } {
  const bytes = Buffer.byteLength(JSON.stringify(request.messages ?? []), 'utf8');
  const limit = [request.max_completion_tokens, request.max_tokens].find(
    (v): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 0,
  );
  return { promptTokens: Math.ceil(bytes / 4), completionTokens: limit ?? DEFAULT_OUTPUT_ESTIMATE };
}
