export const REQUIRED_PERMISSION_KEY = 'agp:requiredPermission';
