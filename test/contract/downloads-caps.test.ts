/**
 * Downloads, the rules between requests: the scope, the hourly cap per user across keys (cached
 * answers count, 400s do not), the parallel cap (429 at once, never queued), identical requests
 * rendering once in one process and across processes, and a slot freed when its process is killed.
 */
import fs from 'node:fs';
import { execa } from 'execa';
import { afterEach, beforeAll, expect, it } from 'vitest';
import type { Service } from '../../src/core/service.js';
import { setWorkDuration, setWorkSetting } from '../../src/engine/simulated-work.js';
import { BIN } from '../support/cli.js';
import { describeEachEngine, engineEnv, failure, type EngineHarness } from '../support/engines.js';
import { pickVideos, watchUrl, type TestVideos } from '../support/media.js';

const WORLD = { seed: 1, channels: 300 };

/** A starter user with two keys: the caps are the user's, whichever key calls. */
async function starterWithTwoKeys(harness: EngineHarness): Promise<[Service, Service, number]> {
  const { key, user_id } = (await harness.engine.identity.createUserWithKey('starter', ['generations']));
  return [harness.withKey(key), harness.withKey((await harness.engine.identity.createKeyForUser(user_id))), user_id];
}

async function slotsHeld(harness: EngineHarness, userId?: number): Promise<number> {
  const [sql, params] = userId === undefined ? ['SELECT COUNT(*) AS n FROM download_slots', []] : ['SELECT COUNT(*) AS n FROM download_slots WHERE user_id = ?', [userId]];
  return (await harness.engine.store.get<{ n: number }>(sql, params))!.n;
}

async function until(condition: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describeEachEngine(
  'downloads: scope and caps',
  (get) => {
    let videos: TestVideos;
    beforeAll(async () => {
      videos = await pickVideos(get().engine);
    });
    afterEach(() => setWorkSetting(get().engine.settings, { preset: 'short' }));

    it('answers 401 to a key without the generations scope, before judging the input; 403 to a plan of none', async () => {
      const unscoped = get().as('ultimate', []);
      for (const input of [{ video_url: watchUrl(videos.human), format: 'subtitles' as const }, { video_url: '' }]) {
        const error = await failure(unscoped.call('download', input));
        expect(error).toMatchObject({ status: 401, code: 'scope_required' });
        expect(error.message).toMatch(/lacks the "generations" scope/);
        expect(error.hint).toMatch(/--scope generations/);
      }
      expect((await failure(get().as('none').call('download', { video_url: watchUrl(videos.human) }))).status).toBe(403);
    });

    it('caps a Starter user at 5 downloads an hour across both keys, cached ones counted and 400s not', async () => {
      const harness = get();
      const [first, second] = (await starterWithTwoKeys(harness));
      // 400s of every kind first: none of them counts.
      await failure(first.call('download', { video_url: 'https://vimeo.com/1' }));
      await failure(first.call('download', { video_url: watchUrl(videos.human), start: 'later' }));
      await failure(second.call('download', { video_url: watchUrl(videos.music), format: 'subtitles' }));
      await failure(second.call('download', { video_url: watchUrl(videos.long), quality: '1080p' }));
      const subtitles = (video: { video_id: string }) => ({ video_url: watchUrl(video), format: 'subtitles' as const });
      const cached: boolean[] = [];
      for (const [service, video] of [[first, videos.human], [first, videos.human], [second, videos.human], [second, videos.auto], [first, videos.auto]] as const) {
        cached.push((await service.call('download', subtitles(video))).cached);
      }
      expect(cached.filter(Boolean).length).toBeGreaterThanOrEqual(2);

      for (const service of [second, first]) {
        const error = await failure(service.call('download', subtitles(videos.human)));
        expect(error.status).toBe(429);
        expect(error.code).toBe('rate_limited');
        expect(error.message).toMatch(/Starter plan allows 5 downloads an hour, cached ones included\. Try again in \d+s\./);
        expect(error.retryAfterSeconds).toBeGreaterThan(3500);
        expect(error.hint).toMatch(/subscription settings: (file:\/\/|http:\/\/127\.0\.0\.1:\d+\/cdn\/)\S*settings\/subscription\.html$/);
      }
      // Another user is not affected.
      expect((await (await starterWithTwoKeys(harness))[0].call('download', subtitles(videos.human))).cached).toBe(true);
    });

    it('links the 429 to a real subscription settings page, with a Retry-After header over HTTP', async () => {
      const harness = get();
      const [user] = (await starterWithTwoKeys(harness));
      for (let index = 0; index < 5; index += 1) await user.call('download', { video_url: watchUrl(videos.human), format: 'subtitles' });
      const error = await failure(user.call('download', { video_url: watchUrl(videos.human), format: 'subtitles' }));
      const link = /: (\S+)$/.exec(error.hint!)![1]!;
      const page = link.startsWith('file:') ? fs.readFileSync(new URL(link), 'utf8') : await (await fetch(link)).text();
      expect(page).toMatch(/Subscription settings/);
      expect(page).toMatch(/<td>Starter<\/td><td>5<\/td><td>1<\/td>/);
      if (harness.kind === 'remote') {
        const key = (await harness.engine.identity.createUserWithKey('starter', ['generations']));
        const body = JSON.stringify({ video_url: watchUrl(videos.human), format: 'subtitles' });
        const headers = { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' };
        for (let index = 0; index < 5; index += 1) await fetch(`${harness.baseUrl}/api/download-video`, { method: 'POST', headers, body });
        const response = await fetch(`${harness.baseUrl}/api/download-video`, { method: 'POST', headers, body });
        expect(response.status).toBe(429);
        expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(3500);
      }
    });

    it('refuses a download over the parallel cap at once (429, not queued), then takes it once the slot is free', async () => {
      const harness = get();
      const [first, second, userId] = (await starterWithTwoKeys(harness));
      await setWorkDuration(harness.engine.settings, { min_ms: 2000, max_ms: 2000 });
      let firstDone = false;
      const running = first.call('download', { video_url: watchUrl(videos.long), format: 'subtitles' }).finally(() => {
        firstDone = true;
      });
      await until(async () => (await slotsHeld(harness, userId)) === 1, 'the first download to hold its slot');
      const error = await failure(second.call('download', { video_url: watchUrl(videos.human), format: 'audio', start: 0, end: 1 }));
      // Answered while the first still runs: refused at once, not queued behind it.
      expect(firstDone).toBe(false);
      expect(error.status).toBe(429);
      expect(error.message).toMatch(/allows 1 in parallel and 1 is in progress; this one was not queued\. Try again in \d+s\./);
      expect(error.hint).toMatch(/subscription settings: \S+subscription\.html$/);
      expect((await running).cached).toBe(false);
      expect(await slotsHeld(harness, userId)).toBe(0);
      await setWorkSetting(harness.engine.settings, { preset: 'short' });
      expect((await second.call('download', { video_url: watchUrl(videos.human), format: 'audio', start: 0, end: 1 })).cached).toBe(false);
    });

    it('renders two identical requests arriving together once: one answer renders, the other waits and is served from the cache', async () => {
      const harness = get();
      await setWorkDuration(harness.engine.settings, { min_ms: 300, max_ms: 300 });
      const input = { video_url: watchUrl(videos.auto), quality: '360p' as const, start: 40, end: 41 };
      const answers = await Promise.all([harness.as('professional').call('download', input), harness.as('ultimate').call('download', input)]);
      expect(answers.map((answer) => answer.cached).sort()).toEqual([false, true]);
      expect(answers[0]!.download_url).toBe(answers[1]!.download_url);
      expect(await slotsHeld(harness)).toBe(0);
    });

    it('renders once across processes too: a CLI process renders, this one waits for it', async () => {
      const harness = get();
      // Saved before the CLI starts: on Postgres it reads the shared settings when it opens.
      await setWorkDuration(harness.engine.settings, { min_ms: 1000, max_ms: 1000 });
      const cli = execa('node', [BIN, '--json', 'download', watchUrl(videos.short), '--format', 'subtitles', '--url-only'], {
        env: { ...engineEnv(harness), TUBEKIT_BASE_URL: '', TUBEKIT_API_KEY: '', NO_COLOR: '1' },
        reject: false,
      });
      const rendering = async () => (await harness.engine.store.get<{ n: number }>("SELECT COUNT(*) AS n FROM download_files WHERE state = 'rendering'"))!.n;
      await until(async () => (await rendering()) === 1, 'the CLI to start rendering');
      const here = await harness.as('ultimate').call('download', { video_url: watchUrl(videos.short), format: 'subtitles' });
      const there = await cli;
      expect(there.exitCode).toBe(0);
      const theirs = JSON.parse(there.stdout) as { cached: boolean; download_url: string };
      expect([theirs.cached, here.cached]).toEqual([false, true]);
      expect(decodeURIComponent(here.download_url).split('/cdn/')[1]).toBe(decodeURIComponent(theirs.download_url).split('/cdn/')[1]);
    });

    it('frees the slot of a process killed while it held one, so the user is not locked out', async () => {
      const harness = get();
      const { key, user_id } = (await harness.engine.identity.createUserWithKey('starter', ['generations']));
      const user = harness.withKey(key);
      await setWorkDuration(harness.engine.settings, { min_ms: 60_000, max_ms: 60_000 });
      const cli = execa('node', [BIN, 'download', watchUrl(videos.music), '--format', 'audio', '--start', '0', '--end', '2', '--url-only'], {
        env: { ...engineEnv(harness), TUBEKIT_BASE_URL: '', TUBEKIT_API_KEY: key, NO_COLOR: '1' },
        reject: false,
      });
      await until(async () => (await slotsHeld(harness, user_id)) === 1, 'the CLI to hold a slot');
      const input = { video_url: watchUrl(videos.music), format: 'audio' as const, start: 0, end: 2 };
      const refused = await failure(user.call('download', input));
      expect(refused.status).toBe(429);
      expect(refused.message).toMatch(/in parallel/);
      cli.kill('SIGKILL');
      await cli;
      await setWorkSetting(harness.engine.settings, { preset: 'short' });
      // Its slot is freed and its unfinished render is taken over: this request renders the file itself.
      const answer = await user.call('download', input);
      expect(answer.cached).toBe(false);
      expect(await slotsHeld(harness, user_id)).toBe(0);
    });
  },
  { world: WORLD, postgres: true },
);
