import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

import { BootstrapResult } from './bootstrap.service';

/** D11: the credentials go to a file only its owner can read (0600), never to the log. */
export function writeBootstrapFile(path: string, result: BootstrapResult): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const body = {
    tenant: result.tenant,
    tenantId: result.tenantId,
    email: result.email,
    password: result.password,
    tokenUrl: result.tokenUrl,
    howToGetAToken: howToGetAToken(result.tokenUrl, result.tenant, result.email, path),
  };
  writeFileSync(path, `${JSON.stringify(body, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
}

export function bootstrapFileExists(path: string): boolean {
  return existsSync(path);
}

/** A command that reads the password from the file, so the password itself is never printed. */
export function howToGetAToken(
  tokenUrl: string,
  tenant: string,
  email: string,
  file: string,
): string {
  return (
    `curl -s -X POST ${tokenUrl} -d grant_type=password -d tenant=${tenant} ` +
    `--data-urlencode username=${email} --data-urlencode "password=$(node -p 'require(\\"${file}\\").password')"`
  );
}
