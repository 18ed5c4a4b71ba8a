import { IsOptional, IsString } from 'class-validator';
import { CoreEnv } from '@agp/config';

/** D2: unset DATABASE_URL / NATS_URL mean PGlite under DATA_DIR and in-process events. */
export class RunnerEnv extends CoreEnv {
  /** The console's build to serve at `/` (issue 16); default: @agp/console's dist/. */
  @IsOptional()
  @IsString()
  CONSOLE_DIR?: string;
}
