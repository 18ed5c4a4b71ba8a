import { Global, Module } from '@nestjs/common';

import { SchemaValidator } from './schema-validator';

/** GR20: one validator per replica, its compiled schemas shared by every traffic path. */
@Global()
@Module({ providers: [SchemaValidator], exports: [SchemaValidator] })
export class ValidationModule {}
