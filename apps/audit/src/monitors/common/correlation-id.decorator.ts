import { IncomingMessage } from 'node:http';

import { ExecutionContext, createParamDecorator } from '@nestjs/common';
import { correlationIdOf } from '@agp/http';

/** D13: the request's correlation id, carried onto the events a change emits. */
export const CorrelationId = createParamDecorator(
  (_data: unknown, context: ExecutionContext): string => {
    const request = context.switchToHttp().getRequest<{ raw: IncomingMessage }>();
    return correlationIdOf(request.raw);
  },
);
