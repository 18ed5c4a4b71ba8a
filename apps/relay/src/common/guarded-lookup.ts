import { LookupAddress, LookupOptions, lookup } from 'node:dns';

import { EgressOptions, checkEgressAddress } from './egress-policy';

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** D37 on every connection, not only at registration, so DNS rebinding to private hosts fails. */
export function guardedLookup(
  egress: EgressOptions,
): (hostname: string, options: LookupOptions, callback: LookupCallback) => void {
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) {
        callback(error, []);
        return;
      }
      const refusal = addresses
        .map((a) => checkEgressAddress(a.address, egress))
        .find((why) => why !== null);
      if (refusal) {
        callback(Object.assign(new Error(`egress refused: ${refusal}`), { code: 'EGRESS' }), []);
        return;
      }
      if (options.all) {
        callback(null, addresses);
      } else {
        callback(null, addresses[0].address, addresses[0].family);
      }
    });
  };
}
