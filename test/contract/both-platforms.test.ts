/**
 * Scenarios that make sense on both platforms, run on the sample world and on a live data dir (a
 * made-up site on 127.0.0.1), on both engines: resolving, processing a channel, a folder's channels
 * and an alert cycle answer the same shapes; the live platform's answers add since when a channel
 * has been watched, and its figures over time start at the first read.
 */
import { beforeAll, expect, it } from 'vitest';
import type { Service } from '../../src/core/service.js';
import { failure } from '../support/engines.js';
import { cookingSite, JANE } from '../support/live-channels.js';
import { describeEachPlatform, type LiveHarness } from '../support/live-harness.js';
import { channelFixtures, setJobWork } from '../support/channel-fixtures.js';

interface Subject {
  channel_id: string;
  handle: string;
  title: string;
  subscribers: number;
}

async function subjectOf(harness: LiveHarness): Promise<Subject> {
  if (harness.platform === 'sample') return (await channelFixtures(harness.engine)).longform;
  const jane = harness.site!.channels.get(JANE)!;
  return { channel_id: jane.id, handle: jane.handle, title: jane.title, subscribers: jane.subscribers };
}

describeEachPlatform(
  'the workspace and channel research on either platform',
  (get) => {
    let user: Service;
    let subject: Subject;
    beforeAll(async () => {
      user = get().as('ultimate');
      subject = await subjectOf(get());
      await setJobWork(get().engine, 0);
    });

    it('resolves a handle to its channel, and answers 404 for a handle no channel has', async () => {
      const body = await user.call('channels.resolve', { input: subject.handle });
      expect(body).toMatchObject({ success: true, channel_id: subject.channel_id, title: subject.title, known: true });
      expect((await failure(user.call('channels.resolve', { input: '@nobody-has-this-handle' }))).status).toBe(404);
    });

    it('resolves legacy /user/ and /c/ URLs as the URLs they are (on live, through the site\'s resolver)', async () => {
      // The live site's legacy names differ from the handle: only the resolver knows where they lead.
      const names = get().platform === 'live' ? ['user/janecooks2009', 'c/JaneCooksLive'] : [`user/${subject.handle.slice(1)}`, `c/${subject.handle.slice(1)}`];
      for (const name of names) {
        const body = await user.call('channels.resolve', { input: `https://www.youtube.com/${name}` });
        expect(body, name).toMatchObject({ channel_id: subject.channel_id, known: true });
      }
      expect((await failure(user.call('channels.resolve', { input: 'https://www.youtube.com/user/nobody-has-this-name' }))).status).toBe(404);
    });

    it("answers a video's metadata with its channel, and the category its player names (live)", async () => {
      const uploads = await get().engine.platform().then((platform) => platform.channelVideos(subject.channel_id, { kind: 'long', limit: 1 }));
      const videoId = uploads[0]!.video_id;
      const body = await user.call('video.info', { url: `https://www.youtube.com/watch?v=${videoId}` });
      expect(body).toMatchObject({ id: videoId, channel: subject.title, uploader: subject.title });
      // The live channel page names no category; the video's player does.
      if (get().platform === 'live') expect(body.categories).toEqual(['Howto & Style']);
    });

    it('processes a channel: profile, statistics, recent uploads and a verdict; live gains start unknown', async () => {
      const submitted = await user.call('channels.process', { channel: subject.handle, type: 'longform' });
      expect(submitted.resolved_channel_id).toBe(subject.channel_id);
      const done = await user.call('channels.processStatus', { job_id: submitted.job_id, wait_seconds: 30 });
      expect(done.status).toBe('completed');
      expect(typeof done.eligible).toBe('boolean');
      const result = done.result as { channel: Record<string, unknown>; statistics: Record<string, unknown>; videos: unknown[]; ineligible_reasons: string[] };
      expect(result.channel).toMatchObject({ channel_id: subject.channel_id, title: subject.title });
      expect(result.statistics.subscribers).toBe(subject.subscribers);
      expect(result.videos.length).toBeGreaterThan(0);
      expect(Array.isArray(result.ineligible_reasons)).toBe(true);
      if (get().platform === 'live') {
        // Language from the captions of its newest upload; no history before the first read.
        expect(result.channel.language).toBe('English');
        expect(done.eligible).toBe(true);
        expect(result.statistics).toMatchObject({ subscribers_gained_7d: null, views_gained_30d: null, watched_since: expect.any(String) });
      } else {
        expect(result.statistics).not.toHaveProperty('watched_since');
        expect(typeof result.statistics.views_gained_7d).toBe('number');
      }
    });

    it("lists a folder's channels with their figures and 24h/48h deltas (null on live until watched that long)", async () => {
      const folder = (await user.call('folders.create', { name: 'Both platforms' })).folder;
      await user.call('saved.add', { channel_ids: [subject.channel_id], folder_id: folder.id });
      const body = await user.call('folders.channels', { id: folder.id });
      const [entry] = body.channels;
      expect(entry).toMatchObject({ channel_id: subject.channel_id, title: subject.title, subscribers: subject.subscribers });
      if (get().platform === 'live') {
        expect(entry).toMatchObject({ views_24h: null, views_48h: null, subs_24h: null, subs_48h: null, watched_since: expect.any(String), figures_as_of: expect.any(String) });
      } else {
        expect(typeof entry!.views_24h).toBe('number');
        expect(entry).not.toHaveProperty('watched_since');
      }
    });

    it('evaluates alerts on its cycle (on live, the refresh sweep) and reports each alert', async () => {
      const alert = (await user.call('alerts.create', { name: 'Cooking outliers', alert_type: 'outlier', content_type: 'longform', filters: { min_subs: 1_000 } })).alert;
      await get().engine.scheduledCycle();
      const status = await user.call('alerts.status', {});
      expect(status.alerts.find((entry) => entry.alert_id === alert.id)).toMatchObject({ enabled: true, last_evaluated_at: expect.any(String) });
      const triggered = await user.call('alerts.triggered', { alert_id: alert.id });
      expect(triggered.total).toBe(triggered.channels.length);
    });
  },
  {
    site: (site, clock) => {
      cookingSite(site, clock.now());
      site.channels.get(JANE)!.legacy = ['user/janecooks2009', 'c/JaneCooksLive'];
      site.unknownHandle('@nobody-has-this-handle');
      site.unknownHandle('user/nobody-has-this-name');
    },
    postgres: true,
  },
);
