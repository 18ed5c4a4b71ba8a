/** Operand types of common built-ins, for compile-time checks of literal operands. */
const S = 'string';
const N = 'number';
const O = 'object';
const A = 'array';
const COLL = 'array|set';
const ANY = 'any';

export const SIGNATURES: Record<string, string[]> = {
  concat: [S, COLL],
  contains: [S, S],
  startswith: [S, S],
  endswith: [S, S],
  lower: [S],
  upper: [S],
  split: [S, S],
  replace: [S, S, S],
  trim: [S, S],
  trim_left: [S, S],
  trim_right: [S, S],
  trim_prefix: [S, S],
  trim_suffix: [S, S],
  trim_space: [S],
  sprintf: [S, A],
  format_int: [N, N],
  indexof: [S, S],
  indexof_n: [S, S],
  substring: [S, N, N],
  'strings.reverse': [S],
  'strings.count': [S, S],
  'strings.replace_n': [O, S],
  'regex.match': [S, S],
  'regex.split': [S, S],
  'regex.find_n': [S, S, N],
  'regex.find_all_string_submatch_n': [S, S, N],
  'regex.replace': [S, S, S],
  'glob.match': [S, 'array|null', S],
  count: ['array|object|set|string'],
  sum: [COLL],
  product: [COLL],
  max: [COLL],
  min: [COLL],
  sort: [COLL],
  'object.get': [O, ANY, ANY],
  'object.keys': [O],
  'object.remove': [O, 'array|set|object'],
  'object.filter': [O, 'array|set|object'],
  'object.union': [O, O],
  'object.union_n': [A],
  'json.filter': [O, COLL],
  'json.remove': [O, COLL],
  'json.unmarshal': [S],
  abs: [N],
  round: [N],
  ceil: [N],
  floor: [N],
  'numbers.range': [N, N],
  'base64.encode': [S],
  'base64.decode': [S],
  'base64url.encode': [S],
  'base64url.decode': [S],
  'hex.encode': [S],
  'hex.decode': [S],
  'urlquery.encode': [S],
  'urlquery.decode': [S],
  'urlquery.encode_object': [O],
  'time.parse_rfc3339_ns': [S],
  'time.parse_ns': [S, S],
  'time.parse_duration_ns': [S],
  'net.cidr_contains': [S, S],
  'net.cidr_intersects': [S, S],
  'net.cidr_expand': [S],
  'crypto.sha256': [S],
  'crypto.sha1': [S],
  'crypto.md5': [S],
  'crypto.hmac.sha256': [S, S],
  'crypto.hmac.sha1': [S, S],
  'crypto.hmac.sha512': [S, S],
  'crypto.hmac.md5': [S, S],
  'units.parse': [S],
  'units.parse_bytes': [S],
  'semver.compare': [S, S],
  'io.jwt.decode': [S],
  to_number: ['null|boolean|number|string'],
  'array.concat': [A, A],
  'array.slice': [A, N, N],
  'array.reverse': [A],
  'array.flatten': [A],
  'io.jwt.decode_verify': [S, O],
  'io.jwt.encode_sign': [O, O, O],
  'io.jwt.encode_sign_raw': [S, S, S],
  ...Object.fromEntries(
    ['rs', 'ps', 'es', 'hs'].flatMap((k) =>
      ['256', '384', '512'].map((n) => [`io.jwt.verify_${k}${n}`, [S, S]]),
    ),
  ),
  'io.jwt.verify_eddsa': [S, S],
  'crypto.x509.parse_certificates': [S],
  'crypto.x509.parse_and_verify_certificates': [S],
  'crypto.x509.parse_and_verify_certificates_with_options': [S, O],
  'crypto.x509.parse_certificate_request': [S],
  'crypto.x509.parse_keypair': [S, S],
  'crypto.x509.parse_rsa_private_key': [S],
  'crypto.parse_private_keys': [S],
  'graphql.parse_query': [S],
  'graphql.parse_schema': [S],
  'graphql.schema_is_valid': ['object|string'],
  'graphql.is_valid': ['object|string', 'object|string'],
  'graphql.parse': ['object|string', 'object|string'],
  'graphql.parse_and_verify': ['object|string', 'object|string'],
  'json.verify_schema': ['object|string|boolean'],
  'json.match_schema': ['object|string|boolean', 'object|string|boolean'],
  'providers.aws.sign_req': [O, O, N],
  'strings.render_template': [S, O],
  'rand.intn': [S, N],
  'net.cidr_contains_matches': ['string|array|set|object', 'string|array|set|object'],
};

/** More declarations from OPA's `ast/builtins.go` (operand types of the remaining typed built-ins). */
const TIME = 'number|array';
Object.assign(SIGNATURES, {
  'bits.and': [N, N],
  'bits.or': [N, N],
  'bits.xor': [N, N],
  'bits.lsh': [N, N],
  'bits.rsh': [N, N],
  'bits.negate': [N],
  'numbers.range_step': [N, N, N],
  'time.add_date': [N, N, N, N],
  'time.date': [TIME],
  'time.clock': [TIME],
  'time.weekday': [TIME],
  'time.format': [TIME],
  'time.diff': [TIME, TIME],
  'uuid.parse': [S],
  'uuid.rfc4122': [S],
  'net.cidr_is_valid': [S],
  'net.cidr_merge': [COLL],
  'yaml.unmarshal': [S],
  'json.is_valid': [S],
  'yaml.is_valid': [S],
  'base64.is_valid': [S],
  'base64url.encode_no_pad': [S],
  'urlquery.decode_object': [S],
  'glob.quote_meta': [S],
  'regex.template_match': [S, S, S, S],
  'regex.globs_match': [S, S],
  'rego.parse_module': [S, S],
  'strings.any_prefix_match': ['string|array|set', 'string|array|set'],
  'strings.any_suffix_match': ['string|array|set', 'string|array|set'],
  'object.subset': ['object|array|set', 'object|array|set'],
  'json.patch': [ANY, A],
  'json.marshal_with_options': [ANY, O],
  'crypto.hmac.equal': [S, S],
  'graph.reachable': [O, COLL],
  'graph.reachable_paths': [O, COLL],
  intersection: ['set'],
  union: ['set'],
  trace: [S],
});

/** Infix operators (`+ - * / % & |`) take these operand types. */
Object.assign(SIGNATURES, {
  plus: [N, N],
  mul: [N, N],
  div: [N, N],
  rem: [N, N],
  minus: ['number|set', 'number|set'],
  and: ['set', 'set'],
  or: ['set', 'set'],
});

const names = (type: string, list: string): [string, string][] =>
  list
    .trim()
    .split(/\s+/)
    .map((n) => [n, type]);

/**
 * Result type of built-ins whose result has one type (OPA's declarations), so that a nested call or
 * a local assigned from one is typed: `upper(count(x))` and `n := count(x); lower(n)` are type
 * errors at compile time, as in OPA.
 */
export const RESULT_TYPES: Record<string, string> = Object.fromEntries([
  ...names(
    N,
    `count sum product abs round ceil floor plus mul div rem to_number indexof strings.count
     semver.compare time.now_ns time.parse_rfc3339_ns time.parse_ns time.parse_duration_ns
     time.add_date units.parse units.parse_bytes bits.and bits.or bits.xor bits.negate bits.lsh
     bits.rsh rand.intn`,
  ),
  ...names(
    S,
    `concat lower upper sprintf substring trim trim_left trim_right trim_prefix trim_suffix
     trim_space replace strings.reverse strings.replace_n format_int base64.encode base64.decode
     base64url.encode base64url.decode base64url.encode_no_pad hex.encode hex.decode
     urlquery.encode urlquery.decode urlquery.encode_object crypto.sha256 crypto.sha1 crypto.md5
     crypto.hmac.sha256 crypto.hmac.sha1 crypto.hmac.sha512 crypto.hmac.md5 json.marshal
     yaml.marshal type_name regex.replace glob.quote_meta strings.render_template
     io.jwt.encode_sign io.jwt.encode_sign_raw uuid.rfc4122 time.format time.weekday`,
  ),
  ...names(
    'boolean',
    `contains startswith endswith regex.match glob.match is_string is_number is_boolean is_array
     is_set is_object is_null net.cidr_contains net.cidr_intersects regex.is_valid semver.is_valid
     json.is_valid yaml.is_valid base64.is_valid strings.any_prefix_match
     strings.any_suffix_match crypto.hmac.equal equal neq lt lte gt gte object.subset
     regex.template_match regex.globs_match net.cidr_is_valid trace`,
  ),
  ...names(
    A,
    `split regex.split regex.find_n regex.find_all_string_submatch_n sort array.concat
     array.slice array.reverse array.flatten numbers.range time.date time.clock time.diff
     io.jwt.decode numbers.range_step`,
  ),
  ...names(
    O,
    `object.union object.remove object.filter object.union_n json.filter json.remove
     urlquery.decode_object`,
  ),
  ...names(
    'set',
    `net.cidr_expand net.cidr_merge graph.reachable graph.reachable_paths and or
     intersection union`,
  ),
  ...names(O, `uuid.parse rego.parse_module`),
]);
