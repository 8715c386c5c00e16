/**
 * Real media files of sample-world videos, rendered with ffmpeg:
 *  - MP4: H.264 at the requested frame height, 1 frame a second (the picture changes once a
 *    second: the time code), AAC of the sound track, and — when the video has a transcript — an
 *    English subtitle track timed to the section;
 *  - MP3: the same sound track.
 * The sound is laid out from pieces encoded once (`stitch.ts`) and stream-copied; only the
 * picture is encoded in full. An hour of audio, or of 360p video, renders in seconds.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Transcript } from '../platform/transcript.js';
import type { PlatformVideo } from '../platform/types.js';
import { AAC_FRAMES, MP3_FRAMES, type FrameCodec } from './audio-frames.js';
import { runFfmpeg } from './ffmpeg.js';
import { frameSize, pictureFilter } from './picture.js';
import { soundPlanFor, voiceForChannel, type MediaSection } from './sound-plan.js';
import { stitchSoundTrack } from './stitch.js';
import { transcriptToSrt } from './subtitles.js';

/** What a render is of. */
export interface RenderSubject {
  videoId: string;
  channelId: string;
  title: string;
  channelTitle: string;
  /** Shorts render portrait (9:16). */
  portrait: boolean;
  transcript: Transcript | null;
  section: MediaSection;
}

/** A platform video as a render subject: with its channel's title (its id when the channel is unknown) and transcript, over `section`. */
export function renderSubjectOf(
  video: Pick<PlatformVideo, 'video_id' | 'channel_id' | 'title' | 'kind'>,
  channel: { title: string } | null | undefined,
  transcript: Transcript | null,
  section: MediaSection,
): RenderSubject {
  return {
    videoId: video.video_id,
    channelId: video.channel_id,
    title: video.title,
    channelTitle: channel?.title ?? video.channel_id,
    portrait: video.kind === 'short',
    transcript,
    section,
  };
}

/** Seconds between key frames: seeking stays quick, still pictures stay small. */
const KEYFRAME_SECONDS = 30;

/** The section's sound as a bare `codec` frame stream in `dir`. */
async function soundTrack(subject: RenderSubject, codec: FrameCodec, dir: string, signal?: AbortSignal): Promise<string> {
  const plan = await soundPlanFor(subject.section, subject.transcript, {
    voice: voiceForChannel(subject.channelId),
    toneSeed: subject.videoId,
    signal,
  });
  const file = path.join(dir, `sound.${codec.name}`);
  await stitchSoundTrack(plan, codec, file, dir, signal);
  return file;
}

function metadata(subject: RenderSubject): string[] {
  return ['-metadata', `title=${subject.title}`, '-metadata', `artist=${subject.channelTitle}`, '-metadata', `comment=https://www.youtube.com/watch?v=${subject.videoId}`];
}

/** Where a render keeps its pieces (a scratch folder its caller removes), and what cancels it. */
export interface RenderPlace {
  workDir: string;
  signal?: AbortSignal;
}

/** `sound: false` leaves the sound track out (a vision model given only frames has no use for it). */
export async function renderMp4(subject: RenderSubject, height: number, output: string, { workDir: dir, signal }: RenderPlace, { sound: withSound = true } = {}): Promise<void> {
  const picture = pictureFilter(
    frameSize(height, subject.portrait),
    {
      title: subject.title,
      channel: subject.channelTitle,
      footer: `tubekit sample world · ${subject.videoId} · ${height}p`,
      startSeconds: subject.section.start,
      seed: subject.videoId,
    },
    dir,
  );
  const sound = withSound ? await soundTrack(subject, AAC_FRAMES, dir, signal) : null;
  const subtitles = subject.transcript ? transcriptToSrt(subject.transcript.cues, subject.section) : '';
  const subtitleInput: string[] = [];
  if (subtitles) {
    const file = path.join(dir, 'section.srt');
    await fs.promises.writeFile(file, subtitles);
    subtitleInput.push('-i', file);
  }
  await runFfmpeg(
    [
      '-f', 'lavfi', '-i', picture.background,
      ...(sound ? ['-f', 'aac', '-i', sound] : []),
      ...subtitleInput,
      '-filter_complex', `[0:v]${picture.filter}[picture]`,
      '-map', '[picture]', ...(sound ? ['-map', '1:a'] : []),
      ...(subtitles ? ['-map', `${sound ? 2 : 1}:s`, '-c:s', 'mov_text', '-metadata:s:s:0', 'language=eng'] : []),
      '-t', subject.section.duration.toFixed(3),
      '-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '30', '-g', String(KEYFRAME_SECONDS), '-pix_fmt', 'yuv420p',
      ...(sound ? ['-c:a', 'copy'] : []),
      ...metadata(subject),
      '-movflags', '+faststart',
      '-f', 'mp4', output,
    ],
    { signal },
  );
}

export async function renderMp3(subject: RenderSubject, output: string, { workDir: dir, signal }: RenderPlace): Promise<void> {
  const sound = await soundTrack(subject, MP3_FRAMES, dir, signal);
  await runFfmpeg(
    ['-f', 'mp3', '-i', sound, '-t', subject.section.duration.toFixed(3), '-c:a', 'copy', '-id3v2_version', '3', ...metadata(subject), '-f', 'mp3', output],
    { signal },
  );
}
