import { Module } from '@nestjs/common';

import { RolesModule } from '../roles/roles.module';
import { UsersModule } from '../users/users.module';
import { GroupsController } from './groups.controller';
import { GroupsRepository } from './groups.repository';
import { GroupsService } from './groups.service';

@Module({
  imports: [RolesModule, UsersModule],
  controllers: [GroupsController],
  providers: [GroupsRepository, GroupsService],
  exports: [GroupsRepository],
})
export class GroupsModule {}
