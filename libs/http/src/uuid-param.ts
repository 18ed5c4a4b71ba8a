import { ParseUUIDPipe } from '@nestjs/common';

import { HttpProblem } from './http-problem.exception';

/**
 * The pipe of every path id: a value that is not a UUID is a 400 naming the parameter (D12),
 * `@Param('agentId', uuidParam('agentId'))`.
 */
export function uuidParam(name: string): ParseUUIDPipe {
  return new ParseUUIDPipe({
    exceptionFactory: () =>
      HttpProblem.validation([{ field: name, message: `${name} must be a UUID` }]),
  });
}
