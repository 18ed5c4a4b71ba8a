export * from './config/gateway.env';
export * from './proxy/register-proxy';
export * from './proxy/upstream-routes';
export * from './gateway-app';
