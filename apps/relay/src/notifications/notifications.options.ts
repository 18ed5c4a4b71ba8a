export const NOTIFICATION_OPTIONS = Symbol('relay:notification-options');

/** W20: retries, timeout, poll, concurrency and retention are WEBHOOK_*'s. */
export interface NotificationOptions {
  /** NOTIFICATION_SMTP_CA_FILE: extra STARTTLS roots (own mail relay, a test's server). */
  smtpCa?: string;
}
