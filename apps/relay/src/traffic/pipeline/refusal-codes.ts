/**
 * The refusal codes of D41 (with D60's and D61's), declared once in the contracts so the relay and
 * the console read the same table; here for the traffic paths, with the `data` every refusal
 * carries.
 */
import type { Refusal } from '@agp/contracts/enums';

export { REFUSALS } from '@agp/contracts/enums';
export type { Refusal, RefusalName } from '@agp/contracts/enums';

/**
 * `data` of a refusal's JSON-RPC error: `agpCode` first, then what the site knows (`reasons`,
 * `decisionId`, `correlationId`, `hitlRequestId`, `killSwitchId`, `retryAfter` …).
 */
export function refusalData(
  refusal: Refusal,
  data: Record<string, unknown> = {},
): Record<string, unknown> {
  return { agpCode: refusal.agpCode, ...data };
}
