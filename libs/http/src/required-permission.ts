/**
 * Metadata key of the permission a route needs. Declared here (not in @agp/auth, which sets it
 * with `@RequirePermission`) because the OpenAPI document of this lib reads it.
 */
export const REQUIRED_PERMISSION_KEY = 'agp:requiredPermission';
