import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { SampleWorld, type SampleVideo } from '../../../src/engine/platform/sample/index.js';

let world: SampleWorld;

beforeAll(() => {
  world = SampleWorld.ensure(new Database(':memory:'), { seed: 'transcripts', channels: 600, referenceDate: '2026-11-21' });
});

function publishedVideos(limit: number): SampleVideo[] {
  return world.sampleVideos(limit);
}

describe('sample world: transcripts', () => {
  it('covers a video from start to end with ordered, non-overlapping cues inside its duration', () => {
    const videos = publishedVideos(60).filter((video) => video.captions !== null);
    expect(videos.length).toBeGreaterThan(20);
    for (const video of videos) {
      const transcript = world.transcript(video.video_id)!;
      expect(transcript.cues.length).toBeGreaterThan(0);
      let previousEnd = 0;
      for (const cue of transcript.cues) {
        expect(cue.start).toBeGreaterThanOrEqual(previousEnd);
        expect(cue.end).toBeGreaterThan(cue.start);
        expect(cue.end).toBeLessThanOrEqual(video.duration_seconds);
        expect(cue.text.trim()).not.toBe('');
        previousEnd = cue.end;
      }
      // Speech is spread over the whole video, not bunched at its start.
      expect(transcript.cues.at(-1)!.end).toBeGreaterThan(video.duration_seconds * 0.7);
    }
  });

  it('is deterministic and says which kind of captions a video carries', () => {
    const videos = publishedVideos(30);
    for (const video of videos) {
      const transcript = world.transcript(video.video_id);
      expect(transcript?.source ?? null).toBe(video.captions);
      expect(world.transcript(video.video_id)).toEqual(transcript);
    }
  });

  it('writes human captions as sentences and auto captions as lowercase word groups', () => {
    const videos = publishedVideos(60);
    const human = world.transcript(videos.find((video) => video.captions === 'human')!.video_id)!;
    const auto = world.transcript(videos.find((video) => video.captions === 'auto')!.video_id)!;
    expect(human.cues[0]!.text).toMatch(/^[A-Z].*[.!?]$/);
    for (const cue of auto.cues) expect(cue.text).toBe(cue.text.toLowerCase().replace(/[.,!?]/g, ''));
  });

  it('talks about the video: its channel and its title', () => {
    const video = publishedVideos(30).find((candidate) => candidate.captions === 'human' && candidate.kind === 'long')!;
    const channel = world.channelById(video.channel_id)!;
    const text = world.transcript(video.video_id)!.cues.map((cue) => cue.text).join(' ');
    expect(text).toContain(channel.title);
    expect(text).toContain(video.title.replace(/#\S+/g, '').replace(/[.!?…]+$/u, '').trim().slice(0, 12));
  });

  it('has no transcript for music, upcoming or unknown videos', () => {
    const music = world.sampleChannels(600).find((channel) => channel.category === 'Music')!;
    const song = world.channelVideos(music, { kind: 'long' })[0] ?? world.channelVideos(music)[0]!;
    expect(world.transcript(song.video_id)).toBeNull();
    const upcoming = world.sampleChannels(600).flatMap((channel) => world.channelVideos(channel, { kind: 'upcoming' }))[0]!;
    expect(world.transcript(upcoming.video_id)).toBeNull();
    expect(world.transcript('AAAAAAAAAAA')).toBeNull();
  });
});

describe('sample world: videos to try', () => {
  it('mixes long videos with human captions, shorts and long videos without them among the first few', () => {
    const first = publishedVideos(6);
    expect(first.some((video) => video.kind === 'long' && video.captions === 'human')).toBe(true);
    expect(first.some((video) => video.kind === 'short')).toBe(true);
    expect(first.some((video) => video.kind === 'long' && video.captions !== 'human')).toBe(true);
    expect(new Set(first.map((video) => video.video_id)).size).toBe(first.length);
    for (const video of first) {
      expect(video.video_id).toMatch(/^[A-Za-z0-9_-]{11}$/);
      expect(video.url).toContain(video.video_id);
      expect(world.videoById(video.video_id)?.channel_id).toBe(video.channel_id);
    }
  });

  it("lists one channel's videos, upcoming ones included, and nothing for an unknown channel", () => {
    const channel = world.sampleChannels(1)[0]!;
    const videos = world.sampleVideos(50, channel.channel_id);
    expect(videos.map((video) => video.video_id)).toEqual(world.channelVideos(channel).map((video) => video.video_id));
    expect(world.sampleVideos(5, 'UC0000000000000000000000')).toEqual([]);
  });
});
