/** D41, D60, D61: declared in the contracts so the relay and the console read one table. */
import type { Refusal } from '@agp/contracts/enums';

export { REFUSALS } from '@agp/contracts/enums';
export type { Refusal, RefusalName } from '@agp/contracts/enums';

/** `agpCode` first, then what the site knows. */
export function refusalData(
  refusal: Refusal,
  data: Record<string, unknown> = {},
): Record<string, unknown> {
  return { agpCode: refusal.agpCode, ...data };
}
