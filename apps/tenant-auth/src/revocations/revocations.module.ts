import { Module } from '@nestjs/common';

import { RevocationsRepository } from './revocations.repository';
import { RevocationsService } from './revocations.service';

/** identity.md I2: the writing side of revocations (the reading side is libs/auth's). */
@Module({ providers: [RevocationsRepository, RevocationsService], exports: [RevocationsService] })
export class RevocationsModule {}
