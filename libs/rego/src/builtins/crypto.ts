import { createHash, createHmac, randomInt, randomUUID } from 'node:crypto';
import { normalizeBig } from '../values/json';
import { RegoObject, Value } from '../values/value';
import { BuiltinDef } from './types';
import { def, int, str } from './helpers';

function hash(alg: string): (args: Value[]) => Value {
  return ([s]) => createHash(alg).update(str(s, 1), 'utf8').digest('hex');
}

function hmac(alg: string): (args: Value[]) => Value {
  return ([s, k]) =>
    createHmac(alg, Buffer.from(str(k, 2), 'utf8'))
      .update(str(s, 1), 'utf8')
      .digest('hex');
}

const DOMAINS = ['Person', 'Group', 'Org'];

/** Time-based UUIDs (versions 1 and 2): the fields Go's google/uuid exposes, as OPA returns them. */
function timeFields(hex: string, version: number, out: RegoObject): void {
  const low = BigInt('0x' + hex.slice(0, 8));
  const mid = BigInt('0x' + hex.slice(8, 12));
  const high = BigInt('0x' + hex.slice(12, 16)) & 0xfffn;
  // 100-ns intervals since 1582-10-15, to Unix nanoseconds.
  const t = (high << 48n) | (mid << 32n) | low;
  const since = t - 122192928000000000n;
  out.set(
    'time',
    normalizeBig((since / 10_000_000n) * 1_000_000_000n + (since % 10_000_000n) * 100n),
  );
  out.set('clocksequence', parseInt(hex.slice(16, 20), 16) & 0x3fff);
  const node = hex.slice(20).match(/../g) ?? [];
  out.set('nodeid', node.join('-'));
  const first = parseInt(node[0] ?? '0', 16);
  out.set(
    'macvariables',
    `${first & 2 ? 'local' : 'global'}:${first & 1 ? 'multicast' : 'unicast'}`,
  );
  if (version === 2) {
    out.set('id', Number(low));
    const d = parseInt(hex.slice(18, 20), 16);
    out.set('domain', DOMAINS[d] ?? `Domain${d}`);
  }
}

export const CRYPTO_BUILTINS: BuiltinDef[] = [
  def('crypto.sha256', 1, hash('sha256')),
  def('crypto.sha1', 1, hash('sha1')),
  def('crypto.md5', 1, hash('md5')),
  def('crypto.hmac.sha256', 2, hmac('sha256')),
  def('crypto.hmac.sha1', 2, hmac('sha1')),
  def('crypto.hmac.sha512', 2, hmac('sha512')),
  def('crypto.hmac.md5', 2, hmac('md5')),
  def('crypto.hmac.equal', 2, ([a, b]) => str(a, 1) === str(b, 2)),
  def('uuid.rfc4122', 1, ([s], ctx) => ctx.once('uuid.rfc4122:' + str(s, 1), () => randomUUID())),
  def('uuid.parse', 1, ([s]) => {
    const t = str(s, 1).toLowerCase();
    const m =
      /^(?:urn:uuid:)?\{?([0-9a-f]{8})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{12})\}?$/.exec(
        t,
      );
    if (!m) {
      return undefined;
    }
    const hex = m.slice(1).join('');
    const version = parseInt(hex[12], 16);
    const variantBits = parseInt(hex[16], 16);
    const variant =
      (variantBits & 0x8) === 0
        ? 'Reserved, NCS backward compatibility.'
        : (variantBits & 0xc) === 0x8
          ? 'RFC4122'
          : (variantBits & 0xe) === 0xc
            ? 'Reserved, Microsoft Corporation backward compatibility.'
            : 'Reserved, future definition.';
    const out = RegoObject.from([
      ['version', version],
      ['variant', variant],
    ]);
    if (version === 1 || version === 2) {
      timeFields(hex, version, out);
    }
    return out;
  }),
  // OPA: the same result for the same arguments within one query (its per-query built-in cache).
  def('rand.intn', 2, ([s, n], ctx) => {
    const key = str(s, 1);
    const bound = int(n, 2);
    const abs = bound < 0 ? -bound : bound;
    if (abs === 0 || abs === 0n) {
      return 0;
    }
    return ctx.once(`rand.intn:${key}-${abs}`, () =>
      typeof abs === 'bigint'
        ? normalizeBig(BigInt(randomInt(2 ** 47)) % abs)
        : Math.floor(Math.random() * abs),
    );
  }),
];
