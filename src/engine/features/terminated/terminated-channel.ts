/**
 * A terminated channel is not "no channel": a request naming one by id is told so, with when it
 * was terminated and where its last record is, instead of "no channel exists" or a usage error.
 * The index keeps them apart from live channels (in the sample world their ids are of their own
 * family), so a live lookup never finds one.
 */
import { ServiceError } from '../../../core/errors.js';
import type { TerminatedChannel } from '../../index/terminated/reader.js';

/** Where terminated channels are recorded: the index's terminated channels. */
export interface TerminatedRecords {
  byId(channelId: string): Promise<TerminatedChannel | null>;
}

/** The 404 for a terminated channel's id, or undefined when the id is not one. */
export async function terminatedChannelError(records: TerminatedRecords, channelId: string): Promise<ServiceError | undefined> {
  const channel = await records.byId(channelId);
  if (!channel) return undefined;
  const ago = channel.terminated_days_ago === 1 ? '1 day ago' : `${channel.terminated_days_ago} days ago`;
  return new ServiceError({
    status: 404,
    code: 'channel_terminated',
    message: `Channel ${channelId} ("${channel.title}") was terminated on ${channel.terminated_date} (${ago}): the platform no longer shows it.`,
    hint: `Its last record: GET /api/terminated-channels/${channelId} (\`tubekit terminated show ${channelId}\`).`,
  });
}

/** Throws the terminated channel's 404 when `channelId` is one; returns otherwise. */
export async function refuseTerminated(records: TerminatedRecords, channelId: string): Promise<void> {
  const error = await terminatedChannelError(records, channelId);
  if (error) throw error;
}
