import { ExecutionContext, createParamDecorator } from '@nestjs/common';
import { Principal, RequestWithPrincipal } from '@agp/auth';
import { EventParty } from '@agp/contracts';
import { correlationIdOf } from '@agp/http';
import { FastifyRequest } from 'fastify';

/** Who asks and under which correlation id (D13): what every service method of tenant-auth takes. */
export interface Caller {
  principal: Principal;
  correlationId: string;
}

export const CurrentCaller = createParamDecorator(
  (_data: unknown, context: ExecutionContext): Caller => {
    const request = context.switchToHttp().getRequest<FastifyRequest & RequestWithPrincipal>();
    if (!request.principal) {
      throw new Error('CurrentCaller used on a route without authentication');
    }
    return { principal: request.principal, correlationId: correlationIdOf(request.raw) };
  },
);

export function actorOf(principal: Principal): EventParty {
  return { type: principal.kind, id: principal.subject, label: principal.label };
}

export function eventContext(caller: Caller): { tenantId: string; correlationId: string } {
  return { tenantId: caller.principal.tenantId, correlationId: caller.correlationId };
}
