/** identity.md I15: the two cookies of browser sign-in, both HttpOnly and SameSite=Lax. */
export const SESSION_COOKIE = 'agp_session';
export const REQUEST_COOKIE = 'agp_authz';
/** Sent back to tenant-auth only, never to the services or the console. */
export const COOKIE_PATH = '/tenant-auth/v1';

export interface CookieOptions {
  maxAgeSec: number;
  /** `Secure` everywhere but on a loopback host (a browser drops Secure cookies over plain http). */
  isSecure: boolean;
}

export function serializeCookie(name: string, value: string, options: CookieOptions): string {
  return [
    `${name}=${value}`,
    `Path=${COOKIE_PATH}`,
    `Max-Age=${options.maxAgeSec}`,
    'HttpOnly',
    'SameSite=Lax',
    ...(options.isSecure ? ['Secure'] : []),
  ].join('; ');
}

export function clearCookie(name: string, isSecure: boolean): string {
  return serializeCookie(name, '', { maxAgeSec: 0, isSecure });
}

/** The value of one cookie of a Cookie header; our values are base64url or uuids, never quoted. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      const value = part.slice(eq + 1).trim();
      return /^[A-Za-z0-9_.-]{1,200}$/.test(value) ? value : undefined;
    }
  }
  return undefined;
}

export function isLoopbackUrl(url: string): boolean {
  const host = new URL(url).hostname;
  return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}
