import { ParseUUIDPipe } from '@nestjs/common';

import { HttpProblem } from './http-problem.exception';

/** The pipe of every path id (D12). */
export function uuidParam(name: string): ParseUUIDPipe {
  return new ParseUUIDPipe({
    exceptionFactory: () =>
      HttpProblem.validation([{ field: name, message: `${name} must be a UUID` }]),
  });
}
