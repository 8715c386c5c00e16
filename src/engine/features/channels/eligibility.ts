/**
 * The service's inclusion rules for processed channels (the spec leaves them to us; the README
 * lists them). A channel is eligible when every rule passes; each failing rule gives a reason.
 */
import { ALT_LANGUAGES } from '../../../core/schemas/voices.js';
import type { ChannelJobType } from '../../../core/schemas/jobs.js';
import type { PlatformChannel, PlatformVideo } from '../../platform/platform.js';

export const inclusionRules = {
  /** Smaller channels are too noisy to research. */
  minSubscribers: 1_000,
  /** Channels in languages the service's voice tools cover (the spec's language list). */
  languages: ALT_LANGUAGES as readonly string[],
  /** Recent uploads of the requested type needed to judge a channel. */
  minRecentUploads: 3,
  /** Channel content types that fit each job type. */
  contentTypes: { shorts: ['shorts', 'mixed'], longform: ['longform', 'mixed'] } as Record<ChannelJobType, string[]>,
};

export interface Eligibility {
  eligible: boolean;
  /** Why not, one sentence per failed rule; empty when eligible. */
  reasons: string[];
}

const formatCount = (value: number) => value.toLocaleString('en-US');

export function assessEligibility(channel: PlatformChannel, recent: PlatformVideo[], type: ChannelJobType): Eligibility {
  const reasons: string[] = [];
  if (channel.subscribers === null) {
    reasons.push(`Its subscriber count is hidden; at least ${formatCount(inclusionRules.minSubscribers)} subscribers are needed.`);
  } else if (channel.subscribers < inclusionRules.minSubscribers) {
    reasons.push(`It has ${formatCount(channel.subscribers)} subscribers; at least ${formatCount(inclusionRules.minSubscribers)} are needed.`);
  }
  if (!channel.language || !inclusionRules.languages.includes(channel.language)) {
    reasons.push(`Its language (${channel.language ?? 'unknown'}) is not one the service covers.`);
  }
  const fitting = inclusionRules.contentTypes[type];
  if (channel.content_type && !fitting.includes(channel.content_type)) {
    const other = type === 'shorts' ? 'longform' : 'shorts';
    reasons.push(`It publishes ${channel.content_type} content, not ${type}; submit it with type "${other}".`);
  }
  const noun = type === 'shorts' ? 'shorts' : 'long videos';
  if (recent.length < inclusionRules.minRecentUploads) {
    reasons.push(`It has ${recent.length} recent ${noun}; at least ${inclusionRules.minRecentUploads} are needed.`);
  }
  return { eligible: reasons.length === 0, reasons };
}
