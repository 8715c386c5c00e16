/**
 * Downloads, the files: every link form, each format and quality probed with ffprobe, clipping
 * in every time form, clamping, the size rule, and the 400s that name what is wrong.
 */
import fs from 'node:fs';
import { execa } from 'execa';
import { beforeAll, expect, it } from 'vitest';
import type { Service } from '../../src/core/service.js';
import { describeEachEngine, failure } from '../support/engines.js';
import { fetchText, fetchToFile, parseSrt, pickVideos, probe, watchUrl, type TestVideos } from '../support/media.js';

const WORLD = { seed: 1, channels: 300 };

describeEachEngine(
  'downloads: files',
  (get) => {
    let videos: TestVideos;
    let user: Service;
    beforeAll(async () => {
      videos = await pickVideos(get().engine);
      user = get().as('ultimate');
    });

    it('takes watch links on www., m. and music. hosts, youtu.be links and Shorts URLs, ignoring extra parameters', async () => {
      const id = videos.human.video_id;
      const forms = [
        `https://www.youtube.com/watch?v=${id}`,
        `https://m.youtube.com/watch?v=${id}&t=42s`,
        `https://music.youtube.com/watch?v=${id}&list=PL0123`,
        `https://youtu.be/${id}?si=share`,
      ];
      const answers = [];
      for (const video_url of forms) answers.push(await user.call('download', { video_url, format: 'subtitles' }));
      expect(answers.map((answer) => answer.video_id)).toEqual(forms.map(() => id));
      expect(new Set(answers.map((answer) => answer.download_url)).size).toBe(1);
      expect(answers.map((answer) => answer.cached)).toEqual([false, true, true, true]);
      const short = await user.call('download', { video_url: `https://www.youtube.com/shorts/${videos.short.video_id}`, format: 'subtitles' });
      expect(short).toMatchObject({ video_id: videos.short.video_id, title: videos.short.title });
    });

    it('tells another platform, a missing video and a non-link apart with 400s', async () => {
      const other = await failure(user.call('download', { video_url: 'https://www.tiktok.com/@someone/video/7234567890123456789' }));
      expect(other).toMatchObject({ status: 400, code: 'unsupported_url' });
      expect(other.message).toMatch(/tiktok\.com are not supported/);
      const missing = await failure(user.call('download', { video_url: 'https://youtu.be/AAAAAAAAAAA' }));
      expect(missing).toMatchObject({ status: 400, code: 'video_unavailable' });
      expect(missing.message).toMatch(/AAAAAAAAAAA does not exist/);
      const garbage = await failure(user.call('download', { video_url: 'not a link' }));
      expect(garbage).toMatchObject({ status: 400, code: 'invalid_request' });
      expect(garbage.message).toMatch(/video_url/);
    });

    it('renders MP4 (H.264 + AAC + English subtitles) at each quality\'s exact height, 16:9, as long as the clip', async () => {
      const qualities = ['360p', '480p', '720p', '1080p'] as const;
      const answers = await Promise.all(qualities.map((quality) => user.call('download', { video_url: watchUrl(videos.human), quality, start: 30, end: 32.5 })));
      for (const [index, answer] of answers.entries()) {
        const height = Number.parseInt(qualities[index]!, 10);
        expect(answer).toMatchObject({ format: 'video', quality: height, start_seconds: 30, end_seconds: 32.5, duration_seconds: 2.5, cached: false });
        expect(answer.download_url).toMatch(/\.mp4$/);
        const file = await fetchToFile(user, answer.download_url, 'clip.mp4');
        expect(fs.statSync(file).size).toBe(answer.size_bytes);
        const media = await probe(file);
        expect(Math.abs(media.duration - 2.5)).toBeLessThanOrEqual(0.5);
        const videoStream = media.streams.find((stream) => stream.codec_type === 'video')!;
        expect(videoStream).toMatchObject({ codec_name: 'h264', height, width: Math.round((height * 16) / 9 / 2) * 2 });
        expect(media.streams.find((stream) => stream.codec_type === 'audio')?.codec_name).toBe('aac');
        expect(media.streams.find((stream) => stream.codec_type === 'subtitle')).toMatchObject({ codec_name: 'mov_text', tags: { language: 'eng' } });
      }
    });

    it('renders a short in portrait (9:16) at the requested height, whole when no times are given', async () => {
      const answer = await user.call('download', { video_url: `https://youtu.be/${videos.short.video_id}`, quality: '480p' });
      expect(answer).toMatchObject({ quality: 480, start_seconds: null, end_seconds: null, duration_seconds: videos.short.duration_seconds });
      const media = await probe(await fetchToFile(user, answer.download_url));
      expect(media.streams.find((stream) => stream.codec_type === 'video')).toMatchObject({ height: 480, width: 270 });
      expect(Math.abs(media.duration - videos.short.duration_seconds)).toBeLessThanOrEqual(0.5);
    });

    it('renders the audio as MP3 (quality 0, no picture), and a tone for a video without speech', async () => {
      const answers = await Promise.all(
        [videos.auto, videos.music].map((video) => user.call('download', { video_url: watchUrl(video), format: 'audio', start: '0:10', end: '0:15', quality: '1080p' })),
      );
      for (const answer of answers) {
        expect(answer).toMatchObject({ format: 'audio', quality: 0, duration_seconds: 5 });
        expect(answer.download_url).toMatch(/\.mp3$/);
        const media = await probe(await fetchToFile(user, answer.download_url, 'clip.mp3'));
        expect(media.streams.map((stream) => stream.codec_name)).toEqual(['mp3']);
        expect(Math.abs(media.duration - 5)).toBeLessThanOrEqual(0.5);
      }
    });

    it('delivers subtitles as the whole transcript with its real timings, ignoring start and end', async () => {
      for (const video of [videos.human, videos.auto]) {
        const answer = await user.call('download', { video_url: watchUrl(video), format: 'subtitles', start: 60, end: 90, quality: '360p' });
        expect(answer).toMatchObject({ format: 'subtitles', quality: 0, start_seconds: null, end_seconds: null, duration_seconds: video.duration_seconds });
        expect(answer.download_url).toMatch(/\.en\.srt$/);
        const cues = parseSrt(await fetchText(user, answer.download_url));
        expect(cues).toHaveLength(video.transcript.cues.length);
        cues.forEach((cue, index) => {
          const expected = video.transcript.cues[index]!;
          expect(cue.text).toBe(expected.text);
          expect(Math.abs(cue.start - expected.start)).toBeLessThan(0.002);
          expect(Math.abs(cue.end - expected.end)).toBeLessThan(0.002);
        });
      }
      const none = await failure(user.call('download', { video_url: watchUrl(videos.music), format: 'subtitles' }));
      expect(none).toMatchObject({ status: 400, code: 'subtitles_unavailable' });
      expect(none.message).toMatch(/has no subtitles/);
    });

    it('reads every time form the same way: one clip, one cached file', async () => {
      const forms: Array<string | number> = ['1:30', '00:01:30', '90', '90s', 90, '1m30s'];
      const answers = [];
      for (const start of forms) answers.push(await user.call('download', { video_url: watchUrl(videos.human), format: 'audio', start, end: '1m32s' }));
      expect(answers.map((answer) => [answer.start_seconds, answer.end_seconds, answer.duration_seconds])).toEqual(forms.map(() => [90, 92, 2]));
      expect(new Set(answers.map((answer) => answer.download_url)).size).toBe(1);
      expect(answers.map((answer) => answer.cached)).toEqual([false, true, true, true, true, true]);
    });

    it('follows the clip: the subtitle track and the speech start where the clip starts', async () => {
      const { transcript } = videos.human;
      // A cue inside the video with a pause of at least half a second before it.
      const index = transcript.cues.findIndex((cue, at) => at > 2 && cue.start - transcript.cues[at - 1]!.end > 0.5 && cue.start > 20);
      const cue = transcript.cues[index]!;
      const start = Math.floor(transcript.cues[index - 1]!.end + 0.1);
      const end = start + 8;
      const answer = await user.call('download', { video_url: watchUrl(videos.human), quality: '360p', start, end });
      const file = await fetchToFile(user, answer.download_url, 'clip.mp4');

      const { stdout: srt } = await execa('ffmpeg', ['-v', 'error', '-i', file, '-map', '0:s:0', '-f', 'srt', '-']);
      const shown = parseSrt(srt);
      const expected = transcript.cues.filter((each) => each.end > start && each.start < end);
      expect(shown.map((each) => each.text)).toEqual(expected.map((each) => each.text));
      expect(Math.abs(shown.at(-1)!.start - (expected.at(-1)!.start - start))).toBeLessThan(0.01);

      const { stdout: pcm } = await execa('ffmpeg', ['-v', 'error', '-i', file, '-map', '0:a', '-f', 's16le', '-ac', '1', '-ar', '22050', '-'], { encoding: 'buffer' });
      const samples = new Int16Array(pcm.buffer, pcm.byteOffset, Math.floor(pcm.length / 2));
      const loudness = (from: number, to: number) => {
        let sum = 0;
        for (let i = Math.floor(from * 22050); i < Math.floor(to * 22050); i += 1) sum += samples[i]! ** 2;
        return Math.sqrt(sum / ((to - from) * 22050));
      };
      const at = cue.start - start;
      expect(loudness(at + 0.1, Math.min(at + 1, cue.end - start))).toBeGreaterThan(800);
      expect(loudness(Math.max(0, at - 0.4), at - 0.1)).toBeLessThan(300);
    });

    it('clamps an end past the video\'s end, and says so in end_seconds', async () => {
      const duration = videos.auto.duration_seconds;
      const answer = await user.call('download', { video_url: watchUrl(videos.auto), format: 'audio', start: duration - 4, end: duration + 600 });
      expect(answer).toMatchObject({ start_seconds: duration - 4, end_seconds: duration, duration_seconds: 4 });
      const media = await probe(await fetchToFile(user, answer.download_url, 'tail.mp3'));
      expect(Math.abs(media.duration - 4)).toBeLessThanOrEqual(0.5);
    });

    it('refuses bad times with a 400 naming the field', async () => {
      const url = watchUrl(videos.human);
      const duration = videos.human.duration_seconds;
      const cases: Array<[Record<string, unknown>, RegExp]> = [
        [{ start: '2:00', end: '1:30' }, /start \(2:00\) must be before end \(1:30\)/],
        [{ start: 60, end: 60 }, /start .* must be before end/],
        [{ start: duration + 5 }, /start: .* is past the end of the video/],
        [{ start: -5 }, /start: must not be negative/],
        [{ end: '-0:10' }, /end: must not be negative/],
        [{ start: 'soon' }, /start: must be a time like 1:30, 00:01:30, 90, 90s or 1m30s, not "soon"/],
        [{ end: '1:75' }, /end: .*minutes and seconds/],
        [{ start: true }, /start: must be a time like/],
      ];
      for (const [times, message] of cases) {
        const error = await failure(user.call('download', { video_url: url, format: 'audio', ...times } as never));
        expect(error.status, JSON.stringify(times)).toBe(400);
        expect(error.message, JSON.stringify(times)).toMatch(message);
      }
    });

    it('judges the size of the requested section before any work: over 500 MB says how much to clip', async () => {
      const error = await failure(user.call('download', { video_url: watchUrl(videos.long), quality: '1080p' }));
      expect(error.status).toBe(400);
      expect(error.message).toMatch(/would be about [\d,]+ MB of 1080p video, over the 500 MB download limit/);
      expect(error.message).toMatch(/Clip it with start and end to at most 14:24 — [\d:]+ shorter/);
      // The same video fits at a lower quality, and clipped at 1080p: the rule is about the section.
      await failure(user.call('download', { video_url: watchUrl(videos.long), quality: '1080p', start: 0, end: 865 }));
      const { download_url } = await user.call('download', { video_url: watchUrl(videos.long), quality: '1080p', start: 0, end: 2 });
      expect(download_url).toMatch(/1080p/);
    });
  },
  { world: WORLD, postgres: true },
);

describeEachEngine(
  'downloads: the length limit',
  (get) => {
    it('refuses more media than the limit (here set to 5 minutes) with how much to clip; subtitles have no limit', async () => {
      const videos = await pickVideos(get().engine);
      const user = get().as('ultimate');
      const over = videos.human.duration_seconds - 300;
      const error = await failure(user.call('download', { video_url: watchUrl(videos.human), format: 'audio' }));
      expect(error.status).toBe(400);
      expect(error.message).toMatch(/of media, over the 5:00 download limit/);
      expect(error.message).toContain(`to at most 5:00 — ${Math.floor(over / 60)}:${String(over % 60).padStart(2, '0')} shorter`);
      expect((await user.call('download', { video_url: watchUrl(videos.human), format: 'subtitles' })).success).toBe(true);
    });
  },
  { world: WORLD, planOverrides: { ultimate: { downloadMaxSeconds: 300 } }, postgres: true },
);
