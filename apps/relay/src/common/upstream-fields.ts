import { applyDecorators } from '@nestjs/common';
import { isPresent } from '@agp/http';
import {
  IsInt,
  IsString,
  IsUrl,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateBy,
  ValidateIf,
  ValidationOptions,
  buildMessage,
} from 'class-validator';

import { RESERVED_HEADERS } from '../mcp-servers/mcp-servers.constants';

// Composites apply decorators bottom-first as stacking does, so messages keep the stacked order.
function stacked(...decorators: PropertyDecorator[]): PropertyDecorator {
  return applyDecorators(...decorators.reverse());
}

/** An http(s) URL the relay calls (D37: the service checks it against the egress rules too). */
export function IsUpstreamUrl(): PropertyDecorator {
  return stacked(
    IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] }),
    MaxLength(2_000),
  );
}

export function IsDescription(): PropertyDecorator {
  return stacked(IsString(), MaxLength(2_000));
}

/** D37: a write-only credential the relay sends upstream as an HTTP header value. */
export function IsHeaderValue(field: string): PropertyDecorator {
  return stacked(
    IsString(),
    Length(1, 8_192),
    Matches(HEADER_VALUE, { message: HEADER_VALUE_MESSAGE.replace('credential', field) }),
  );
}

/** How long the relay waits upstream (ms): may be absent, never null. */
export function IsTimeoutMs(min: number, max: number): PropertyDecorator {
  return stacked(ValidateIf(isPresent), IsInt(), Min(min), Max(max));
}

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
