import { ValidateBy, ValidationOptions, isURL } from 'class-validator';

const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/;

/** identity.md I17: an issuer is https, or plain http on this machine (development and tests). */
export function isIssuerUrl(value: unknown): boolean {
  if (typeof value !== 'string') {
    return false;
  }
  if (isURL(value, { require_protocol: true, protocols: ['https'] })) {
    return true;
  }
  try {
    const url = new URL(value);
    return url.protocol === 'http:' && LOOPBACK.test(url.hostname) && !url.username;
  } catch {
    return false;
  }
}

export function IsIssuerUrl(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isIssuerUrl',
      validator: {
        validate: isIssuerUrl,
        defaultMessage: () => '$property must be an https URL (http only on localhost)',
      },
    },
    options,
  );
}
