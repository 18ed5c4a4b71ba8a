import { DomainException } from './domain.exception';
import { FieldError } from './problem-details';

/** A problem that is about HTTP itself (validation, authentication, routing), not a feature. */
export class HttpProblem extends DomainException {
  constructor(
    readonly status: number,
    code: string,
    detail: string,
    errors?: FieldError[],
    headers?: Record<string, string>,
  ) {
    super(code, detail, errors, headers);
  }

  static validation(errors: FieldError[]): HttpProblem {
    const fields = [...new Set(errors.map((e) => e.field))].join(', ');
    return new HttpProblem(400, 'validation-error', `invalid request: ${fields}`, errors);
  }

  static notFound(detail: string): HttpProblem {
    return new HttpProblem(404, 'not-found', detail);
  }

  /** `challenge`: the WWW-Authenticate value (RFC 6750 §3); MCP server paths name more (D43). */
  static unauthorized(detail: string, challenge = 'Bearer error="invalid_token"'): HttpProblem {
    return new HttpProblem(401, 'invalid-token', detail, undefined, {
      'www-authenticate': challenge,
    });
  }

  static forbidden(role: string): HttpProblem {
    return new HttpProblem(403, 'forbidden', `this operation needs the role ${role}`);
  }
}
