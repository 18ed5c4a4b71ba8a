import { Module, OnModuleInit } from '@nestjs/common';
import { warmUpDetectors } from '@agp/guardrails';

import { PoliciesModule } from '../policies/policies.module';
import { GuardrailPresetsController } from './guardrail-presets.controller';
import { GuardrailPresetsService } from './guardrail-presets.service';

/** Ready-made guardrail policies (issue 36 item 2, GR11). */
@Module({
  imports: [PoliciesModule],
  controllers: [GuardrailPresetsController],
  providers: [GuardrailPresetsService],
})
export class GuardrailsModule implements OnModuleInit {
  onModuleInit(): void {
    warmUpDetectors();
  }
}
