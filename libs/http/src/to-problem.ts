import { HttpException } from '@nestjs/common';

import { DomainException } from './domain.exception';
import { FieldError, ProblemDetails, problemType, statusTitle } from './problem-details';

export interface RenderedProblem {
  body: ProblemDetails;
  headers: Record<string, string>;
  /** True when the error is ours to log as a fault (5xx that was not a deliberate answer). */
  isFault: boolean;
}

const SLUG_BY_STATUS: Record<number, string> = {
  400: 'bad-request',
  401: 'invalid-token',
  403: 'forbidden',
  404: 'not-found',
  405: 'method-not-allowed',
  409: 'conflict',
  413: 'payload-too-large',
  415: 'unsupported-media-type',
  429: 'rate-limited',
  502: 'bad-gateway',
  503: 'unavailable',
  504: 'gateway-timeout',
};

function httpExceptionDetail(error: HttpException): string {
  const response = error.getResponse();
  if (typeof response === 'string') {
    return response;
  }
  const message = (response as { message?: unknown }).message;
  if (Array.isArray(message)) {
    return message.join('; ');
  }
  return typeof message === 'string' ? message : error.message;
}

function clientStatusOf(error: unknown): number | undefined {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === 'number' && status >= 400 && status < 500 ? status : undefined;
}

/** Turns any thrown value into the D12 body; nothing internal (stack, SQL) ever leaves. */
export function toProblem(
  error: unknown,
  instance: string,
  correlationId: string,
): RenderedProblem {
  let status = 500;
  let code = 'internal-error';
  let detail = `an unexpected error occurred; quote correlation id ${correlationId}`;
  let errors: FieldError[] | undefined;
  let headers: Record<string, string> = {};
  let isFault = true;
  let extensions: Readonly<Record<string, unknown>> = {};

  if (error instanceof DomainException) {
    ({ status, code } = error);
    detail = error.message;
    errors = error.errors;
    headers = error.headers ?? {};
    extensions = error.extensions ?? {};
    isFault = false;
  } else if (error instanceof HttpException) {
    status = error.getStatus();
    code = SLUG_BY_STATUS[status] ?? 'http-error';
    detail = status >= 500 ? detail : httpExceptionDetail(error);
    isFault = status >= 500;
  } else {
    const clientStatus = clientStatusOf(error);
    if (clientStatus !== undefined) {
      status = clientStatus;
      code = SLUG_BY_STATUS[status] ?? 'bad-request';
      detail = error instanceof Error ? error.message : statusTitle(status);
      isFault = false;
    }
  }

  const body: ProblemDetails = {
    ...extensions,
    type: problemType(code),
    title: statusTitle(status),
    status,
    detail,
    instance,
    correlationId,
    ...(errors ? { errors } : {}),
  };
  return { body, headers, isFault };
}
