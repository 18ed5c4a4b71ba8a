import { ArgumentMetadata, ParseUUIDPipe } from '@nestjs/common';

import { HttpProblem } from './http-problem.exception';

/**
 * The pipe of every path id (D12). It answers the id in lowercase, as PostgreSQL prints a uuid:
 * ids are compared as strings after the route (kill switches, budgets, caches), and an id the
 * caller spelled in capitals must not miss a rule that names it.
 */
class CanonicalUuidPipe extends ParseUUIDPipe {
  override async transform(value: string, metadata: ArgumentMetadata): Promise<string> {
    return (await super.transform(value, metadata)).toLowerCase();
  }
}

export function uuidParam(name: string): ParseUUIDPipe {
  return new CanonicalUuidPipe({
    exceptionFactory: () =>
      HttpProblem.validation([{ field: name, message: `${name} must be a UUID` }]),
  });
}
