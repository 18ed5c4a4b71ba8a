import { randomBytes } from 'node:crypto';

import { loadEnv } from '@agp/config';

import { RelayEnv } from './relay.env';

describe(RelayEnv.name, () => {
  it('should default to no key and no private egress when unset', () => {
    const sut = loadEnv(RelayEnv, {});

    expect(sut.SECRETS_KEY).toBeUndefined();
    expect(sut.EGRESS_ALLOW_PRIVATE).toBe(false);
  });

  it('should read a key and the egress switch when they are given', () => {
    const key = randomBytes(32).toString('base64');

    const sut = loadEnv(RelayEnv, { SECRETS_KEY: key, EGRESS_ALLOW_PRIVATE: 'true' });

    expect(sut.SECRETS_KEY).toBe(key);
    expect(sut.EGRESS_ALLOW_PRIVATE).toBe(true);
  });

  it('should name each variable when the key is not 32 bytes or the switch not a boolean', () => {
    const run = (): RelayEnv =>
      loadEnv(RelayEnv, {
        SECRETS_KEY: randomBytes(16).toString('base64'),
        EGRESS_ALLOW_PRIVATE: 'yes',
      });

    expect(run).toThrow(/SECRETS_KEY.*EGRESS_ALLOW_PRIVATE|EGRESS_ALLOW_PRIVATE.*SECRETS_KEY/);
  });
});
