/** The answer of a rotation: the new secret, shown this once, and when the old one stops signing. */
export interface RotatedWebhookSecret {
  webhookSecret: string;
  previousSecretExpiresAt: string;
}
