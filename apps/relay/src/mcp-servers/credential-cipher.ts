import { Inject, Injectable } from '@nestjs/common';
import { SecretSealer } from '@agp/sealing';

import { SECRETS_KEY } from '../config/relay-config.module';

/**
 * D37: upstream credentials, webhook secrets and push credentials at rest, sealed under SECRETS_KEY
 * by the platform's one sealer (F37), which still opens the `v1.<keyId>.…` values sealed before it.
 */
@Injectable()
export class CredentialCipher extends SecretSealer {
  constructor(@Inject(SECRETS_KEY) key: Buffer) {
    super(key, { keyName: 'SECRETS_KEY' });
  }
}
