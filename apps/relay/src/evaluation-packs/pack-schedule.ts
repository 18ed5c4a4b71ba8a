import { CronExpressionParser } from 'cron-parser';
import { ValidateBy, ValidationOptions } from 'class-validator';

const ALIASES = new Set(['@hourly', '@daily', '@weekly', '@monthly', '@yearly']);

/**
 * G13: five cron fields (minute, hour, day of month, month, day of week) or an alias, in UTC;
 * the minute is the finest step, as the scheduler ticks once a minute. Why not, or undefined.
 */
export function scheduleProblem(expression: string): string | undefined {
  const fields = expression.trim().split(/\s+/);
  if (!(fields.length === 5 || (fields.length === 1 && ALIASES.has(fields[0])))) {
    return 'schedule must be five cron fields (minute hour day-of-month month day-of-week) or @hourly, @daily, @weekly, @monthly, @yearly';
  }
  try {
    CronExpressionParser.parse(expression, { tz: 'UTC', strict: false });
    return undefined;
  } catch (error) {
    return `schedule is not a cron expression: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** The first time the schedule names after `from` (UTC). */
export function nextRunAfter(expression: string, from: Date): Date {
  return CronExpressionParser.parse(expression, { tz: 'UTC', currentDate: from }).next().toDate();
}

/** A pack's `schedule`: a valid cron expression, or the empty string that removes it. */
export function IsPackSchedule(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isPackSchedule',
      validator: {
        validate: (value) =>
          typeof value === 'string' && (value === '' || scheduleProblem(value) === undefined),
        defaultMessage: (args) =>
          typeof args?.value === 'string'
            ? (scheduleProblem(args.value) ?? 'schedule is invalid')
            : 'schedule must be a string',
      },
    },
    options,
  );
}
