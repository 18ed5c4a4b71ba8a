import { Inject, Injectable } from '@nestjs/common';
import { Database } from '@agp/database';

import { RELAY_DATABASE } from '../../database/tokens';
import { LicenceCheck } from '../../licences/licence.types';
import { LicencesRepository } from '../../licences/licences.repository';
import { Licences } from '../../licences/licences.service';
import { InstalledTarget } from './traffic-directory';

/** MK23: the licence a call to an installed entry goes under, whatever the protocol. */
@Injectable()
export class InstalledLicences {
  constructor(
    private readonly licences: Licences,
    private readonly licenceRows: LicencesRepository,
    @Inject(RELAY_DATABASE) private readonly database: Database,
  ) {}

  /** The installation's newest licence, checked as `verify` checks any (MK23, MK24). */
  async newest(installed: InstalledTarget): Promise<{ check: LicenceCheck; token?: string }> {
    const [latest] = await this.database.asSystem((tx) =>
      this.licenceRows.ofInstallation(tx, installed.id),
    );
    if (!latest) {
      return { check: { valid: false, reason: 'missing' } };
    }
    const check = await this.licences.check(latest.token, {
      listingId: installed.listingId,
      tenantId: installed.tenantId,
    });
    return { check, token: latest.token };
  }
}
