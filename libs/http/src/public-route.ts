import { SetMetadata } from '@nestjs/common';

/**
 * Metadata key of routes that need no bearer token. Declared here (not in @agp/auth) because the
 * health probes of this lib are such routes; `@Public()` in @agp/auth sets the same key.
 */
export const PUBLIC_ROUTE_KEY = 'agp:isPublic';

export const PublicRoute = (): MethodDecorator & ClassDecorator =>
  SetMetadata(PUBLIC_ROUTE_KEY, true);
