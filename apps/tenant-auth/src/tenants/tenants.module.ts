import { Module } from '@nestjs/common';

import { RevocationsModule } from '../revocations/revocations.module';
import { RolesModule } from '../roles/roles.module';
import { UsersModule } from '../users/users.module';
import { TenantProvisioner } from './tenant-provisioner';
import { TenantsController } from './tenants.controller';
import { TenantsRepository } from './tenants.repository';
import { TenantsService } from './tenants.service';

@Module({
  imports: [UsersModule, RolesModule, RevocationsModule],
  controllers: [TenantsController],
  providers: [TenantsRepository, TenantProvisioner, TenantsService],
  exports: [TenantsRepository, TenantProvisioner],
})
export class TenantsModule {}
