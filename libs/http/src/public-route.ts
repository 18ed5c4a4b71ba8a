import { SetMetadata } from '@nestjs/common';

/** Declared here (not in @agp/auth) because the health probes of this lib are such routes. */
export const PUBLIC_ROUTE_KEY = 'agp:isPublic';

export const PublicRoute = (): MethodDecorator & ClassDecorator =>
  SetMetadata(PUBLIC_ROUTE_KEY, true);
