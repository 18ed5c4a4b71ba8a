export const NOTIFICATION_OPTIONS = Symbol('relay:notification-options');

/**
 * The relay's notification settings beyond the webhook ones they share (W20): the retry
 * schedule, attempt timeout, poll, concurrency and retention are WEBHOOK_*'s.
 */
export interface NotificationOptions {
  /**
   * PEM certificates an SMTP server's STARTTLS certificate may chain to besides the system's
   * (NOTIFICATION_SMTP_CA_FILE): a company's own mail relay, or a test's self-signed server.
   */
  smtpCa?: string;
}
