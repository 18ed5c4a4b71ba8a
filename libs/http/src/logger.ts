import pino, { Logger } from 'pino';

/** Never in a log line: credentials in headers or bodies (issue 4: no secret in any captured log). */
const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-svc-signature"]',
  // D60, payments.md PY12: an x402 payment payload is a signed authorisation to pay.
  'req.headers["payment-signature"]',
  'req.headers["x-payment"]',
  '*.password',
  '*.clientSecret',
  '*.client_secret',
  '*.accessToken',
  '*.access_token',
];

export interface LoggerOptions {
  service: string;
  level: string;
  destination?: pino.DestinationStream;
}

/** JSON lines with the service name; request lines add `correlationId` (D13). */
export function createLogger(options: LoggerOptions): Logger {
  return pino(
    {
      level: options.level,
      base: { service: options.service },
      redact: { paths: REDACTED_PATHS, censor: '[REDACTED]' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    options.destination,
  );
}
