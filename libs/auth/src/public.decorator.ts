import { PUBLIC_ROUTE_KEY, PublicRoute } from '@agp/http';

export const IS_PUBLIC_KEY = PUBLIC_ROUTE_KEY;

/** Only health probes and the three routes of D6 (token, JWKS, discovery) carry it. */
export const Public = PublicRoute;
