import { createHash, createHmac, randomUUID } from 'node:crypto';
import { RegoObject, Value } from '../values/value';
import { BuiltinDef } from './types';
import { def, str } from './helpers';

function hash(alg: string): (args: Value[]) => Value {
  return ([s]) => createHash(alg).update(str(s, 1), 'utf8').digest('hex');
}

function hmac(alg: string): (args: Value[]) => Value {
  return ([s, k]) =>
    createHmac(alg, Buffer.from(str(k, 2), 'utf8'))
      .update(str(s, 1), 'utf8')
      .digest('hex');
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
    return RegoObject.from([
      ['version', version],
      ['variant', variant],
    ]);
  }),
];
