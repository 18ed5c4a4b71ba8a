import { Tx } from '@agp/database';

import { InstallationsRepository } from './installations.repository';
import { MarketplaceErrorCode, MarketplaceException } from './marketplace.exception';
import { StoredInstallation } from './marketplace.types';

/** An installation of either side, 404 to everyone else (MK9). */
export async function installationOf(
  installations: InstallationsRepository,
  tx: Tx,
  tenantId: string,
  id: string,
  lock = false,
): Promise<StoredInstallation> {
  const found = await installations.find(tx, id, lock);
  if (!found || (found.tenantId !== tenantId && found.publisherTenantId !== tenantId)) {
    throw new MarketplaceException(
      MarketplaceErrorCode.InstallationNotFound,
      `installation ${id} not found`,
    );
  }
  return found;
}

export async function ownInstallationOf(
  installations: InstallationsRepository,
  tx: Tx,
  tenantId: string,
  id: string,
  lock = false,
): Promise<StoredInstallation> {
  const found = await installationOf(installations, tx, tenantId, id, lock);
  if (found.tenantId !== tenantId) {
    throw new MarketplaceException(
      MarketplaceErrorCode.InstallationNotFound,
      `installation ${id} not found`,
    );
  }
  return found;
}
