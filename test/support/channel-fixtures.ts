/** Sample-world channels with the properties channel-job tests need, found by their real data. */
import type { Engine } from '../../src/engine/engine.js';
import { setWorkDuration } from '../../src/engine/simulated-work.js';
import type { WorldChannel } from '../../src/engine/platform/sample/types.js';

export interface ChannelFixtures {
  /** English longform channel that passes every inclusion rule. */
  longform: WorldChannel;
  /** A shorts channel that passes every inclusion rule. */
  shorts: WorldChannel;
  /** Under 1,000 subscribers. */
  small: WorldChannel;
  /** A language the service does not cover. */
  uncoveredLanguage: WorldChannel;
  /** Any long video id of `longform`, and a short of `shorts`. */
  longVideoId: string;
  shortVideoId: string;
}

export async function channelFixtures(engine: Engine): Promise<ChannelFixtures> {
  const world = await engine.platform();
  const channels = world.sampleChannels(600);
  const count = (channel: WorldChannel, kind: 'long' | 'short') => world.channelVideos(channel.channel_id, { kind }).length;
  const pick = (what: string, test: (channel: WorldChannel) => boolean): WorldChannel => {
    const found = channels.find(test);
    if (!found) throw new Error(`no sample channel is ${what}`);
    return found;
  };
  const longform = pick('an eligible English longform channel', (c) =>
    c.language === 'English' && c.content_type === 'longform' && c.subscribers >= 10_000 && count(c, 'long') >= 3);
  const shorts = pick('an eligible shorts channel', (c) =>
    c.language === 'English' && c.content_type === 'shorts' && c.subscribers >= 10_000 && count(c, 'short') >= 3);
  const small = pick('a channel under 1,000 subscribers', (c) => c.subscribers < 1_000);
  const uncoveredLanguage = pick('a channel in an uncovered language', (c) => ['Arabic', 'Turkish', 'Thai', 'Bengali'].includes(c.language));
  return {
    longform,
    shorts,
    small,
    uncoveredLanguage,
    // Its own upload: a collab another channel hosts is listed too, but resolves to its host.
    longVideoId: world.channelVideos(longform.channel_id, { kind: 'long' }).find((video) => video.channel_id === longform.channel_id)!.video_id,
    shortVideoId: world.channelVideos(shorts.channel_id, { kind: 'short' }).find((video) => video.channel_id === shorts.channel_id)!.video_id,
  };
}

/** Sets how long every channel job of the engine works, in milliseconds. */
export function setJobWork(engine: Engine, ms: number): Promise<void> {
  return setWorkDuration(engine.settings, { min_ms: ms, max_ms: ms });
}
