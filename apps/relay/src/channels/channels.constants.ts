/** Kinds of channel a person reaches agents through (R10). */
export const CHANNEL_KINDS = ['SLACK', 'TEAMS', 'EMAIL', 'WEB', 'WEBHOOK', 'OTHER'] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];
export const CHANNELS_CATALOG = Symbol('relay:channels-catalog');
