import { Inject, Injectable } from '@nestjs/common';
import { SecretSealer } from '@agp/sealing';

import { SECRETS_KEY } from '../config/relay-config.module';

/** D37, F37: the one sealer, which still opens `v1.<keyId>.…` values sealed before it. */
@Injectable()
export class CredentialCipher extends SecretSealer {
  constructor(@Inject(SECRETS_KEY) key: Buffer) {
    super(key, { keyName: 'SECRETS_KEY' });
  }
}
