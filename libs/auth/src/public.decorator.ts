import { PUBLIC_ROUTE_KEY, PublicRoute } from '@agp/http';

export const IS_PUBLIC_KEY = PUBLIC_ROUTE_KEY;

/**
 * Marks a route that needs no bearer token. Only health probes and the three routes of D6 (token,
 * JWKS, discovery) carry it; every other route refuses a request without a valid token.
 */
export const Public = PublicRoute;
