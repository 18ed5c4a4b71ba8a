import { CanActivate, ExecutionContext, Inject, Injectable, Optional } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { HttpProblem } from '@agp/http';
import { FastifyRequest } from 'fastify';

import { Audiences, audienceForPath, bearerChallenge, bearerToken } from './audiences';
import {
  REQUIRED_PERMISSION_KEY,
  RequestWithPrincipal,
  RequiredPermission,
} from './auth.decorators';
import { allows, roleOf } from './permissions';
import { Principal } from './principal';
import { IS_PUBLIC_KEY } from './public.decorator';
import { TokenVerifier } from './token-verifier';

export const TOKEN_VERIFIER = Symbol.for('agp:token-verifier');
export const AUTH_AUDIENCES = Symbol.for('agp:auth-audiences');

export type PrincipalCheck = (principal: Principal) => Promise<string | undefined>;
export const PRINCIPAL_CHECK = Symbol.for('agp:principal-check');

const INVALID = 'the bearer token is missing, expired or invalid';

/** Verifies a request's bearer token and returns its principal, or throws the 401 of D12. */
export async function authenticate(
  verifier: TokenVerifier,
  audiences: Audiences,
  request: { url: string; headers: Record<string, string | string[] | undefined> },
  check?: PrincipalCheck,
): Promise<Principal> {
  const token = bearerToken(request.headers.authorization);
  if (!token) {
    throw HttpProblem.unauthorized(INVALID, bearerChallenge(audiences, request.url, false));
  }
  const refused = () =>
    HttpProblem.unauthorized(INVALID, bearerChallenge(audiences, request.url, true));
  let principal: Principal;
  try {
    principal = await verifier.verify(token, audienceForPath(audiences, request.url));
  } catch {
    throw refused();
  }
  const refusal = check ? await check(principal) : undefined;
  if (refusal) {
    throw refused();
  }
  return principal;
}

/** The global guard: every route needs a valid token unless marked @Public(); then its role. */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(TOKEN_VERIFIER) private readonly verifier: TokenVerifier,
    @Inject(AUTH_AUDIENCES) private readonly audiences: Audiences,
    @Optional() @Inject(PRINCIPAL_CHECK) private readonly check?: PrincipalCheck,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC_KEY, targets)) {
      return true;
    }
    const request = context.switchToHttp().getRequest<FastifyRequest & RequestWithPrincipal>();
    const principal = await authenticate(this.verifier, this.audiences, request, this.check);
    request.principal = principal;
    const required = this.reflector.getAllAndOverride<RequiredPermission | undefined>(
      REQUIRED_PERMISSION_KEY,
      targets,
    );
    if (required && !allows(principal.permissions, required.entity, required.permission)) {
      throw HttpProblem.forbidden(roleOf(required.entity, required.permission));
    }
    return true;
  }
}
