import { Module } from '@nestjs/common';

import { LicencesController } from '../licences/licences.controller';
import { LicencesModule } from '../licences/licences.module';
import { TrafficModule } from '../traffic/traffic.module';
import { InstallationLicences } from './installation-licences';
import { InstallationsRepository } from './installations.repository';
import { InstallationsService } from './installations.service';
import { InstalledEntries } from './installed-entries';
import { ListingsRepository } from './listings.repository';
import { ListingsService } from './listings.service';
import { MarketplaceController } from './marketplace.controller';
import { MarketplaceTargetsRepository } from './marketplace-targets.repository';

/** D47: listings, installations and licences; the traffic paths read them (MK16, MK23). */
@Module({
  imports: [TrafficModule, LicencesModule],
  controllers: [MarketplaceController, LicencesController],
  providers: [
    ListingsRepository,
    InstallationsRepository,
    MarketplaceTargetsRepository,
    ListingsService,
    InstallationsService,
    InstallationLicences,
    InstalledEntries,
  ],
})
export class MarketplaceModule {}
