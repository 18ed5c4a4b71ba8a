import { Module } from '@nestjs/common';

import { RevocationsModule } from '../revocations/revocations.module';
import { AgentsController, ServiceAccountsController } from './clients.controller';
import { ClientsRepository } from './clients.repository';
import { ClientsService } from './clients.service';

/** Agents and service accounts: the clients of the client_credentials grant (D7, D30). */
@Module({
  imports: [RevocationsModule],
  controllers: [AgentsController, ServiceAccountsController],
  providers: [ClientsRepository, ClientsService],
  exports: [ClientsRepository],
})
export class ClientsModule {}
