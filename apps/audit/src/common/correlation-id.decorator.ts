import { ExecutionContext, createParamDecorator } from '@nestjs/common';
import { correlationIdOf } from '@agp/http';
import { IncomingMessage } from 'node:http';

/** D13: the request's correlation id, for the audit events a change records. */
export const RequestCorrelationId = createParamDecorator(
  (_data: unknown, context: ExecutionContext): string => {
    const request = context.switchToHttp().getRequest<{ raw: IncomingMessage }>();
    return correlationIdOf(request.raw);
  },
);
