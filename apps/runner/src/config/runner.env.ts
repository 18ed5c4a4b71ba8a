import { IsOptional, IsString } from 'class-validator';
import { CoreEnv } from '@agp/config';

/**
 * `npm start` (D2): the core variables only. DATABASE_URL and NATS_URL are optional here; unset,
 * data lives in PGlite under DATA_DIR and events travel in-process.
 */
export class RunnerEnv extends CoreEnv {
  /** The console's build to serve at `/` (issue 16); default: @agp/console's dist/. */
  @IsOptional()
  @IsString()
  CONSOLE_DIR?: string;
}
