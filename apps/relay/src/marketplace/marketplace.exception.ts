import { domainException } from '@agp/http';

export enum MarketplaceErrorCode {
  ListingNotFound = 'listing-not-found',
  InstallationNotFound = 'installation-not-found',
  TargetNotFound = 'target-not-found',
  TargetNotPublic = 'target-not-public',
  TargetAlreadyListed = 'target-already-listed',
  NoAgentCard = 'no-agent-card',
  ListingUnpublished = 'listing-unpublished',
  OwnListing = 'own-listing',
  AlreadyInstalled = 'already-installed',
  PoliciesNotAccepted = 'policies-not-accepted',
  NotLicensed = 'not-licensed',
  InstallationSuspended = 'installation-suspended',
  LicenceNotFound = 'licence-not-found',
  InvalidCursor = 'invalid-cursor',
  EntryNameTaken = 'entry-name-taken',
  NoServerJson = 'no-server-json',
  EntryInUse = 'installed-entry-in-use',
}

/** Errors of the marketplace (D47, D59, STYLE § 8). */
export class MarketplaceException extends domainException<MarketplaceErrorCode>({
  [MarketplaceErrorCode.ListingNotFound]: 404,
  [MarketplaceErrorCode.InstallationNotFound]: 404,
  [MarketplaceErrorCode.TargetNotFound]: 422,
  [MarketplaceErrorCode.TargetNotPublic]: 422,
  [MarketplaceErrorCode.TargetAlreadyListed]: 409,
  [MarketplaceErrorCode.NoAgentCard]: 422,
  [MarketplaceErrorCode.ListingUnpublished]: 409,
  [MarketplaceErrorCode.OwnListing]: 409,
  [MarketplaceErrorCode.AlreadyInstalled]: 409,
  [MarketplaceErrorCode.PoliciesNotAccepted]: 422,
  [MarketplaceErrorCode.NotLicensed]: 409,
  [MarketplaceErrorCode.InstallationSuspended]: 409,
  [MarketplaceErrorCode.LicenceNotFound]: 404,
  [MarketplaceErrorCode.InvalidCursor]: 400,
  [MarketplaceErrorCode.EntryNameTaken]: 409,
  [MarketplaceErrorCode.NoServerJson]: 422,
  [MarketplaceErrorCode.EntryInUse]: 409,
}) {}

/** D31: an opaque cursor; here the offset of the next page (search ranks are not keysets). */
export function encodeOffsetCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ o: offset }), 'utf8').toString('base64url');
}

export function decodeOffsetCursor(cursor: string | undefined): number {
  if (cursor === undefined) {
    return 0;
  }
  try {
    const { o } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { o?: unknown };
    if (typeof o === 'number' && Number.isInteger(o) && o >= 0 && o <= 1_000_000) {
      return o;
    }
  } catch {
    // Not JSON: answered below like any other cursor this API never gave out.
  }
  throw new MarketplaceException(
    MarketplaceErrorCode.InvalidCursor,
    'cursor is not one this API gave out',
  );
}

/** One page of `limit` from `limit + 1` rows, with the cursor of the next. */
export function cursorPage<T, R>(
  rows: T[],
  offset: number,
  limit: number,
  map: (row: T) => R,
): { items: R[]; nextCursor?: string } {
  const items = rows.slice(0, limit).map(map);
  return rows.length > limit
    ? { items, nextCursor: encodeOffsetCursor(offset + limit) }
    : { items };
}
