import { Module } from '@nestjs/common';

import { McpServersModule } from '../mcp-servers/mcp-servers.module';
import { LicenceKeysRepository } from './licence-keys.repository';
import { LicenceKeys } from './licence-keys.service';
import { LicencesRepository } from './licences.repository';
import { Licences } from './licences.service';

/** MK20–MK28: the platform's licence keys and licences, for the marketplace and the traffic paths. */
@Module({
  imports: [McpServersModule],
  providers: [LicencesRepository, LicenceKeysRepository, LicenceKeys, Licences],
  exports: [LicencesRepository, LicenceKeys, Licences],
})
export class LicencesModule {}
