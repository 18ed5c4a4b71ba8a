import { ValidationError, ValidationPipe } from '@nestjs/common';

import { HttpProblem } from './http-problem.exception';
import { FieldError } from './problem-details';

export function toFieldErrors(errors: ValidationError[], parent = ''): FieldError[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) => ({
      field,
      message: message.startsWith(`property ${error.property} `)
        ? message.replace(`property ${error.property} `, 'property ')
        : message,
    }));
    return [...own, ...toFieldErrors(error.children ?? [], field)];
  });
}

/** The global pipe: unknown properties rejected, every bad field listed (D12). */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    stopAtFirstError: false,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => HttpProblem.validation(toFieldErrors(errors)),
  });
}
