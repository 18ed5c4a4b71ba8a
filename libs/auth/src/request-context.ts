import { IncomingMessage } from 'node:http';

import { ExecutionContext, createParamDecorator } from '@nestjs/common';
import { EventParty } from '@agp/contracts';
import { correlationIdOf } from '@agp/http';

import { RequestWithPrincipal } from './auth.decorators';
import { Principal } from './principal';

/** Who calls, for which tenant and under which correlation id (D13). */
export interface RequestContext {
  principal: Principal;
  tenantId: string;
  correlationId: string;
}

export const Ctx = createParamDecorator(
  (_data: unknown, context: ExecutionContext): RequestContext => {
    const request = context
      .switchToHttp()
      .getRequest<RequestWithPrincipal & { raw: IncomingMessage }>();
    if (!request.principal) {
      throw new Error('Ctx used on a route without authentication');
    }
    return {
      principal: request.principal,
      tenantId: request.principal.tenantId,
      correlationId: correlationIdOf(request.raw),
    };
  },
);

/** The audit actor of an event caused by this request (D14: the principal's label). */
export function actorOf(ctx: RequestContext): EventParty {
  return { type: ctx.principal.kind, id: ctx.principal.subject, label: ctx.principal.label };
}

/** The tenant and correlation id an event caused by this request carries (D5, D13). */
export function eventContext(ctx: RequestContext): { tenantId: string; correlationId: string } {
  return { tenantId: ctx.tenantId, correlationId: ctx.correlationId };
}
