// `node --import ./register-fs-glob.mjs …`: installs fs-glob-hook.mjs before the suite loads.
import { register } from 'node:module';

register('./fs-glob-hook.mjs', import.meta.url);
