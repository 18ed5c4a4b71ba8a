import { CoreEnv } from '@agp/config';

/**
 * `npm start` (D2): the core variables only. DATABASE_URL and NATS_URL are optional here; unset,
 * data lives in PGlite under DATA_DIR and events travel in-process.
 */
export class RunnerEnv extends CoreEnv {}
