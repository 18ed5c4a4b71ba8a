import { Global, Module } from '@nestjs/common';

import { UsersListener } from './users.listener';
import { UsersRepository } from './users.repository';

/** The users projection; other features ask it whether a user belongs to a tenant (D15). */
@Global()
@Module({ providers: [UsersRepository, UsersListener], exports: [UsersRepository] })
export class UsersModule {}
