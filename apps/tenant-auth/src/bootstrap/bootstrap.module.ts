import { Module } from '@nestjs/common';

import { TenantsModule } from '../tenants/tenants.module';
import { BootstrapService } from './bootstrap.service';

@Module({ imports: [TenantsModule], providers: [BootstrapService], exports: [BootstrapService] })
export class BootstrapModule {}
