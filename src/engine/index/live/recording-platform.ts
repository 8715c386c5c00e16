/**
 * The live platform as the engine's features see it: every read of a channel, its tabs or a video
 * is stored in the live index as it returns (a snapshot of the channel's figures, the videos, the
 * channels a video lists). A read that fails stores nothing.
 *
 * `together(work)` stores every read `work` makes in one transaction when it succeeds, and none
 * when it fails: a channel job or a sweep's read of one channel is stored whole or not at all.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ChannelPresence, ChannelVideosOptions, PlatformChannel, PlatformProvider, PlatformVideo } from '../../platform/platform.js';
import type { Store } from '../../store/store.js';
import type { ReadRecording } from '../engine-index.js';
import { recordReads, type LanguageName, type LiveRead, type TimedRead } from './read-recorder.js';

/** The methods whose answers are stored; every other member is the platform's own. */
type RecordedReads = Pick<PlatformProvider, 'resolveHandle' | 'channelById' | 'channelPresence' | 'videoById' | 'channelVideos'>;

export interface RecordingPlatform {
  platform: PlatformProvider;
  recording: ReadRecording;
}

export function recordingPlatform(platform: PlatformProvider, db: Store): RecordingPlatform {
  const pending = new AsyncLocalStorage<TimedRead[]>();
  let names: LanguageName | undefined;
  const languageName: LanguageName = (code) => {
    if (!names) {
      const byCode = new Map(platform.languages().map((language) => [language.code, language.name]));
      names = (wanted) => byCode.get(wanted) ?? null;
    }
    return names(code);
  };
  const store = async (read: LiveRead): Promise<void> => {
    const timed = { read, atMs: platform.nowMs() };
    const batch = pending.getStore();
    if (batch) batch.push(timed);
    else await recordReads(db, [timed], languageName);
  };
  const storeChannel = async (channel: PlatformChannel | null) => {
    if (channel) await store({ channel });
    return channel;
  };

  const recorded: RecordedReads = {
    resolveHandle: async (handle: string) => storeChannel(await platform.resolveHandle(handle)),
    channelById: async (channelId: string) => storeChannel(await platform.channelById(channelId)),
    videoById: async (videoId: string) => {
      const video = await platform.videoById(videoId);
      if (video) await store({ watched: [video] });
      return video;
    },
    channelVideos: async (channelId: string, options?: ChannelVideosOptions) => {
      const videos: PlatformVideo[] = await platform.channelVideos(channelId, options);
      if (videos.length > 0) await store({ listed: videos });
      return videos;
    },
  };
  if (platform.channelPresence) {
    const presenceOf = platform.channelPresence.bind(platform);
    recorded.channelPresence = async (channelId: string): Promise<ChannelPresence> => {
      const presence = await presenceOf(channelId);
      await store(presence.state === 'active' ? { channel: presence.channel } : { gone: { channel_id: channelId, state: presence.state, reason: presence.state === 'terminated' ? presence.reason : null } });
      return presence;
    };
  }

  // Everything else (and the implementation's own members) reaches the platform itself, so its
  // internal calls (resolveHandle reads channelById) are not stored twice.
  const wrapped = new Proxy(platform, {
    get(target, key) {
      if (Object.hasOwn(recorded, key)) return recorded[key as keyof RecordedReads];
      const value = Reflect.get(target, key, target) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });

  const recording: ReadRecording = {
    async together<T>(work: () => Promise<T>): Promise<T> {
      if (pending.getStore()) return work();
      const reads: TimedRead[] = [];
      const result = await pending.run(reads, work);
      if (reads.length > 0) await recordReads(db, reads, languageName);
      return result;
    },
    async collabScanned(channelId: string): Promise<void> {
      await store({ scanned: channelId });
    },
  };
  return { platform: wrapped, recording };
}
