/** RFC 6749 §5.2 error codes (D7). */
export const OAUTH_ERROR_CODES = [
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'invalid_scope',
  'unsupported_grant_type',
  // RFC 8707 §2: a resource the grant was not given for (identity.md I22).
  'invalid_target',
  // RFC 7591 §3.2.2: dynamic registration's own (I24).
  'invalid_redirect_uri',
  'invalid_client_metadata',
] as const;

export type OAuthErrorCode = (typeof OAUTH_ERROR_CODES)[number];

/** The body OAuthErrorFilter sends, for the OpenAPI document (F24). */
export const OAUTH_ERROR_SCHEMA = {
  type: 'object',
  required: ['error', 'error_description'],
  properties: {
    error: { enum: [...OAUTH_ERROR_CODES] },
    error_description: { type: 'string' },
  },
  additionalProperties: false,
};

/** A token-endpoint error, rendered as `{error, error_description}` rather than problem+json (D7). */
export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
  ) {
    super(description);
    this.name = 'OAuthError';
  }

  /** invalid_client is 401 (with a Basic challenge, RFC 6749 §5.2); every other error is 400. */
  get status(): number {
    return this.error === 'invalid_client' ? 401 : 400;
  }
}
