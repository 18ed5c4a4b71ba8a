import { plainToInstance } from 'class-transformer';
import { ValidationError, validateSync } from 'class-validator';

/** A configuration value is missing or bad; the message is one line naming each variable (D3). */
export class ConfigError extends Error {
  constructor(
    readonly variables: string[],
    message: string,
  ) {
    super(message);
    this.name = 'ConfigError';
  }
}

function describe(error: ValidationError): string {
  const reasons = Object.values(error.constraints ?? {}).join(', ');
  return `${error.property}: ${reasons || 'invalid'}`;
}

export function loadEnv<T extends object>(
  envClass: new () => T,
  source: Record<string, string | undefined>,
): T {
  const defined = Object.fromEntries(
    Object.entries(source).filter(([, value]) => value !== undefined && value !== ''),
  );
  const env = plainToInstance(envClass, defined, { exposeDefaultValues: true });
  const errors = validateSync(env, { whitelist: false, forbidUnknownValues: false });
  if (errors.length > 0) {
    const variables = errors.map((e) => e.property);
    throw new ConfigError(variables, `invalid configuration: ${errors.map(describe).join('; ')}`);
  }
  return env;
}

/** For main.ts: load or stop the process with one line on stderr, never a stack trace. */
export function loadEnvOrExit<T extends object>(
  envClass: new () => T,
  source: Record<string, string | undefined> = process.env,
): T {
  try {
    return loadEnv(envClass, source);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}
