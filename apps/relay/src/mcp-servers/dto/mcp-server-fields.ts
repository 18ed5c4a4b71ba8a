import { ValidationOptions, ValidateBy, buildMessage } from 'class-validator';

import { RESERVED_HEADERS } from '../mcp-servers.constants';

/** RFC 9110 `token`: what a header name is made of. */
const HTTP_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,100}$/;

/** Visible ASCII with inner spaces, as an HTTP header value may carry it (no CR, LF or NUL). */
export const HEADER_VALUE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;
export const HEADER_VALUE_MESSAGE =
  'credential must be printable ASCII without leading or trailing spaces (it is sent as an HTTP header value)';

/** D37: the header an upstream credential travels in: an HTTP token the relay does not set itself. */
export function IsCredentialHeader(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isCredentialHeader',
      validator: {
        validate: (value: unknown) =>
          typeof value === 'string' &&
          HTTP_TOKEN.test(value) &&
          !RESERVED_HEADERS.has(value.toLowerCase()),
        defaultMessage: buildMessage(
          () =>
            `credentialHeader must be an HTTP header name (letters, digits and !#$%&'*+-.^_\`|~, at most 100) other than one the relay sets itself (${[...RESERVED_HEADERS].join(', ')})`,
          options,
        ),
      },
    },
    options,
  );
}
