import { Module } from '@nestjs/common';

import { PolicyBindingPromotionService } from './policy-binding-promotion.service';
import { PolicyBindingsController } from './policy-bindings.controller';
import { PolicyBindingsRepository } from './policy-bindings.repository';
import { PolicyBindingsService } from './policy-bindings.service';
import { PolicyChangeRecorder } from './policy-change.recorder';
import { PolicyGroupsController } from './policy-groups.controller';
import { PolicyGroupsRepository } from './policy-groups.repository';
import { PolicyGroupsService } from './policy-groups.service';
import { PolicyVersionsService } from './policy-versions.service';

/** Policy groups, versions and bindings (issue 6 §2, §3). */
@Module({
  controllers: [PolicyGroupsController, PolicyBindingsController],
  providers: [
    PolicyGroupsRepository,
    PolicyBindingsRepository,
    PolicyChangeRecorder,
    PolicyGroupsService,
    PolicyVersionsService,
    PolicyBindingsService,
    PolicyBindingPromotionService,
  ],
  // The ready-made guardrail policies install through these (GR11).
  exports: [
    PolicyGroupsService,
    PolicyVersionsService,
    PolicyBindingsService,
    PolicyBindingsRepository,
    PolicyGroupsRepository,
  ],
})
export class PoliciesModule {}
