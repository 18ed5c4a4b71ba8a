import { ParseUUIDPipe } from '@nestjs/common';
import { HttpProblem } from '@agp/http';

/** A path id that is not a UUID is a 400 naming the parameter (D12). */
export function uuidParam(name: string): ParseUUIDPipe {
  return new ParseUUIDPipe({
    exceptionFactory: () =>
      HttpProblem.validation([{ field: name, message: `${name} must be a UUID` }]),
  });
}
