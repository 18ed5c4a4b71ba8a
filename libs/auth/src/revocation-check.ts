import { PrincipalCheck } from './auth.guard';
import { NatsRevocationOptions, NatsRevocationStore } from './nats-revocation.store';
import { InProcessRevocationStore, RevocationStore } from './revocations';

export const REVOCATION_STORE = Symbol.for('agp:revocation-store');

/** NATS set: the shared bucket every process watches; unset: one store for the whole process (D2). */
export async function createRevocationStore(
  options?: Partial<NatsRevocationOptions>,
): Promise<RevocationStore> {
  return options?.natsUrl
    ? NatsRevocationStore.connect({ natsUrl: options.natsUrl, prefix: options.prefix ?? 'agp' })
    : new InProcessRevocationStore();
}

export function revocationCheck(store: RevocationStore): PrincipalCheck {
  return async (principal) => store.reasonFor(principal);
}
