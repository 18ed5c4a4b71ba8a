import { Module } from '@nestjs/common';

import { TenantsListener } from './tenants.listener';
import { TenantsRepository } from './tenants.repository';

@Module({ providers: [TenantsRepository, TenantsListener] })
export class TenantsModule {}
