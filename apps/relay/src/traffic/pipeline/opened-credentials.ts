import { Injectable } from '@nestjs/common';

import { CredentialCipher } from '../../mcp-servers/credential-cipher';

/** Sealed values kept opened: far more than a tenant's upstreams, small in memory. */
const MAX_OPENED = 1_000;

/** D37: a sealed value never changes meaning (fresh IV), so it is its own cache key. */
@Injectable()
export class OpenedCredentials {
  private readonly opened = new Map<string, string>();

  constructor(private readonly cipher: CredentialCipher) {}

  open(sealed: string): string {
    let plain = this.opened.get(sealed);
    if (plain === undefined) {
      plain = this.cipher.decrypt(sealed);
      if (this.opened.size >= MAX_OPENED) {
        this.opened.delete(this.opened.keys().next().value!);
      }
      this.opened.set(sealed, plain);
    }
    return plain;
  }
}
