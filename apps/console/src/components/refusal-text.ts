import { REFUSALS, type RefusalName } from '@agp/contracts/enums';

/**
 * What a refused caller receives (D41), as an operator searches its logs for it: the JSON-RPC
 * code of the MCP and A2A paths and the stable `agpCode` that the LLM path carries too.
 */
export function refusalText(name: RefusalName): string {
  const { code, agpCode } = REFUSALS[name];
  return `${code} ${agpCode}`;
}
