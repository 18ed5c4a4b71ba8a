import { AGGREGATE_BUILTINS } from './aggregates';
import { OPERATOR_BUILTINS } from './operators';
import { BuiltinDef } from './types';

/** Built-ins OPA has that this engine knows by name only: usable when mocked with `with`. */
const UNSUPPORTED = [
  ['http.send', 1],
  ['net.lookup_ip_addr', 1],
  ['crypto.x509.parse_certificates', 1],
  ['crypto.x509.parse_and_verify_certificates', 1],
  ['json.verify_schema', 1],
  ['json.match_schema', 2],
  ['graphql.parse', 2],
  ['rego.parse_module', 2],
  ['rego.metadata.rule', 0],
  ['rego.metadata.chain', 0],
  ['providers.aws.sign_req', 3],
  ['strings.render_template', 2],
  ['regex.globs_match', 2],
  ['set_diff', 2],
  ['net.cidr_overlap', 2],
  ['cast_array', 1],
  ['cast_set', 1],
  ['cast_string', 1],
  ['cast_boolean', 1],
  ['cast_null', 1],
  ['cast_object', 1],
] as const;

const groups: BuiltinDef[][] = [OPERATOR_BUILTINS, AGGREGATE_BUILTINS];

let registry: Map<string, BuiltinDef> | undefined;

/** Every built-in by name. */
export function builtinRegistry(): Map<string, BuiltinDef> {
  if (!registry) {
    registry = new Map();
    for (const [name, arity] of UNSUPPORTED) {
      registry.set(name, { name, arity, fn: () => undefined, unsupported: true });
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
