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

  static unauthorized(detail: string): HttpProblem {
    return new HttpProblem(401, 'invalid-token', detail, undefined, {
      'www-authenticate': 'Bearer error="invalid_token"',
    });
  }

  static forbidden(role: string): HttpProblem {
    return new HttpProblem(403, 'forbidden', `this operation needs the role ${role}`);
  }
}
