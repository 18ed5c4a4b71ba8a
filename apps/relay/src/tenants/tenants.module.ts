import { Module } from '@nestjs/common';

import { TenantsListener } from './tenants.listener';
import { TenantsRepository } from './tenants.repository';

/** The tenants projection (slug for the decision input). */
@Module({ providers: [TenantsRepository, TenantsListener] })
export class TenantsModule {}
