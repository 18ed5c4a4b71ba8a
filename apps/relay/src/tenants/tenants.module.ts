import { Module } from '@nestjs/common';

import { TenantsListener } from './tenants.listener';

/** The tenants projection (slug for the decision input). */
@Module({ providers: [TenantsListener] })
export class TenantsModule {}
