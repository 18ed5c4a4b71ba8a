import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC_KEY = 'agp:isPublic';

/**
 * Marks a route that needs no bearer token. Only health probes and the three routes of D6 (token,
 * JWKS, discovery) carry it; every other route refuses a request without a valid token.
 */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(IS_PUBLIC_KEY, true);
