import { randomBytes } from 'node:crypto';
import { Resolver } from 'node:dns/promises';

/** Where the proof of a domain lives: a TXT record under this name. */
export function txtRecordName(domain: string): string {
  return `_agp-challenge.${domain}`;
}

export function txtRecordValue(token: string): string {
  return `agp-domain-verification=${token}`;
}

export function newDomainToken(): string {
  return randomBytes(24).toString('base64url');
}

export function normaliseDomain(domain: string): string {
  return domain.trim().toLowerCase().replace(/\.$/, '');
}

/** The outcome of one look-up: verified, or why not (shown as `lastCheckError`). */
export type DomainCheck = { isVerified: true } | { isVerified: false; error: string };

// Looks the TXT record up through node:dns, against DNS_RESOLVER when set (a test points it at a
// DNS server of its own) or the system's resolvers.
export class DomainVerifier {
  constructor(private readonly server?: string) {}

  async check(domain: string, token: string): Promise<DomainCheck> {
    const resolver = new Resolver({ timeout: 3_000, tries: 2 });
    if (this.server) {
      resolver.setServers([this.server]);
    }
    const name = txtRecordName(domain);
    const expected = txtRecordValue(token);
    try {
      const records = await resolver.resolveTxt(name);
      return records.some((chunks) => chunks.join('') === expected)
        ? { isVerified: true }
        : { isVerified: false, error: `no TXT record at ${name} carries the expected value` };
    } catch (error) {
      const code = (error as { code?: string }).code ?? 'ERROR';
      return { isVerified: false, error: `TXT look-up of ${name} failed: ${code}` };
    }
  }
}
