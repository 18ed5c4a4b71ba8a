import { Json } from '../mcp/mcp-world';

/** GR19: a failed schema check blocks because this policy says so (validation alone never does). */
export function invalidBlocks(pkg: string): string {
  return `package ${pkg}

import rego.v1

invalid contains r.target if {
	some r in input.validation.results
	not r.valid
}

decision := {"action": "BLOCK", "reasons": [concat(": ", ["invalid", concat(", ", invalid)])]} if {
	count(invalid) > 0
} else := {"action": "LOG"}
`;
}

export const ofType = (items: Json[], type: string): Json[] =>
  items.filter((e) => e.eventType === type);
export const detailsOf = (event: Json | undefined): Json => (event?.details ?? {}) as Json;
export const validationOf = (event: Json): Json => detailsOf(event).validation as Json;

/** GR24: the hop's COMMUNICATION_AUDIT event, which a VALIDATION_RESULT names. */
export const decidedHop = (trace: Json[], checked: Json): Json | undefined =>
  trace.find((e) => e.id === detailsOf(checked).hopEventId);

/** A trace holding `count` VALIDATION_RESULT events and the hop event each names. */
export const checkedHops =
  (count: number) =>
  (items: Json[]): boolean => {
    const checked = ofType(items, 'VALIDATION_RESULT');
    return checked.length >= count && checked.every((e) => decidedHop(items, e) !== undefined);
  };

/** GR31: the hops of a trace whose values were checked against a schema, valid or not. */
export const validatedHops = (items: Json[]): Json[] =>
  ofType(items, 'COMMUNICATION_AUDIT').filter((e) => validationOf(e) !== undefined);

/** A trace holding `count` hop events with their checks (GR31: a pass has no VALIDATION_RESULT). */
export const hopsChecked =
  (count: number) =>
  (items: Json[]): boolean =>
    validatedHops(items).length >= count;
