import { AGGREGATE_BUILTINS } from './aggregates';
import { OPERATOR_BUILTINS } from './operators';
import { BuiltinDef } from './types';

/** Built-ins OPA has that this engine knows by name only. */
const UNSUPPORTED: [string, number, string][] = [
  ['http.send', 1, 'needs the network (HTTP requests)'],
  ['net.lookup_ip_addr', 1, 'needs the network (DNS lookups)'],
  ['set_diff', 2, 'deprecated'],
  ['net.cidr_overlap', 2, 'deprecated'],
  ['cast_array', 1, 'deprecated'],
  ['cast_set', 1, 'deprecated'],
  ['cast_string', 1, 'deprecated'],
  ['cast_boolean', 1, 'deprecated'],
  ['cast_null', 1, 'deprecated'],
  ['cast_object', 1, 'deprecated'],
];

const groups: BuiltinDef[][] = [OPERATOR_BUILTINS, AGGREGATE_BUILTINS];

let registry: Map<string, BuiltinDef> | undefined;

/** Every built-in by name. */
export function builtinRegistry(): Map<string, BuiltinDef> {
  if (!registry) {
    registry = new Map();
    for (const [name, arity, reason] of UNSUPPORTED) {
      registry.set(name, { name, arity, fn: () => undefined, unsupported: true, reason });
    }
    for (const g of groups) {
      for (const d of g) {
        registry.set(d.name, d);
      }
    }
  }
  return registry;
}

/** Registers more built-in groups (called once by the module that defines them). */
export function addBuiltins(defs: BuiltinDef[]): void {
  groups.push(defs);
  registry = undefined;
}

/** Names of the implemented built-ins, sorted. */
export function supportedBuiltins(): string[] {
  return [...builtinRegistry().values()]
    .filter((d) => !d.unsupported && !d.name.startsWith('internal.'))
    .map((d) => d.name)
    .sort();
}
