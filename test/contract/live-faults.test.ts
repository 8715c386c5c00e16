/**
 * The fault matrix of the live platform: every live feature, with each read it makes failing in
 * each way (a bare 404, a 500, no answer, JSON cut short, a page of another shape), answers an
 * error or an explicit unknown — never a confident value, never "does not exist" — and stores
 * nothing about the channel as if it were measured. Each case breaks its own channel of the site,
 * so no read of another case (or a cache) stands in for the broken one.
 */
import { beforeAll, expect, it, vi } from 'vitest';
import type { Service } from '../../src/core/service.js';
import { DAY_MS } from '../../src/engine/dates.js';
import { describeLive, type LiveHarness } from '../support/live-harness.js';
import type { ReadFault, SiteChannel, SiteRead } from '../support/live-site.js';
import { siteId } from '../support/live-channels.js';
import { setJobWork } from '../support/channel-fixtures.js';

const FAULTS: ReadFault[] = ['http404', 'http500', 'timeout', 'malformed', 'not-understood'];
const READS: SiteRead[] = ['resolve', 'home', 'about', 'videos', 'shorts', 'player', 'next', 'captions'];

interface Feature {
  name: string;
  /**
   * Runs the feature on the channel; resolves to its answer, rejects with its error. `accepted`
   * marks where an earlier call of its own succeeded (a job's submission): what that call read and
   * stored stands, and the tables are compared from there.
   */
  run(user: Service, channel: SiteChannel, harness: LiveHarness, accepted: () => Promise<void>): Promise<unknown>;
  /** An answer that says it does not know, and why: allowed instead of an error. */
  unknown?(body: Record<string, unknown>): boolean;
}

async function processed(user: Service, channel: SiteChannel, type: 'longform' | 'shorts', accepted: () => Promise<void>) {
  const submitted = await user.call('channels.process', { channel: channel.handle, type });
  await accepted();
  const done = await user.call('channels.processStatus', { job_id: submitted.job_id, wait_seconds: 30 });
  if (done.status === 'failed') throw Object.assign(new Error(String(done.error ?? 'failed')), { status: 502, code: 'job_failed' });
  return done;
}

const FEATURES: Feature[] = [
  { name: 'resolve', run: (user, channel) => user.call('channels.resolve', { input: channel.handle }) },
  { name: 'video', run: (user, channel) => user.call('video.info', { url: `https://www.youtube.com/watch?v=${channel.uploads[0]!.id}` }) },
  { name: 'process-channel longform', run: (user, channel, _, accepted) => processed(user, channel, 'longform', accepted) },
  { name: 'process-channel shorts', run: (user, channel, _, accepted) => processed(user, channel, 'shorts', accepted) },
  {
    name: 'cms check',
    run: (user, channel) => user.call('cms.check', { channel_id: channel.id, refresh: true }),
    unknown: (body) => body.status === 'unchecked' && body.checked_at === null && typeof body.note === 'string',
  },
  {
    name: 'ad check',
    run: (user, channel) => user.call('monetization.ads', { channel_id: channel.id }),
    unknown: (body) => body.monetized === null && /^Unknown: /.test(String(body.reason)),
  },
  { name: 'external monetization', run: (user, channel) => user.call('monetization.external', { channel_id: channel.id }) },
  {
    name: 'refresh sweep and collabs',
    run: async (user, channel, harness) => {
      const report = await harness.engine.refresh({ reason: 'command' });
      const read = report.read.find((entry) => entry.channel_id === channel.id);
      const collabs = await user.call('collabs.channel', { channel_id: channel.id });
      if (read?.state === 'failed') {
        // A channel whose read failed is not "scanned" for collabs.
        expect(collabs).toMatchObject({ scanned: false });
        throw Object.assign(new Error(read.error ?? 'failed'), { status: 502, code: 'sweep_read_failed' });
      }
      return { read, collabs };
    },
  },
];

const caseId = (feature: number, read: number, fault: number) => siteId(`flt${feature}r${read}f${fault}`);

function faultChannel(id: string, now: number): SiteChannel {
  const video = (n: number, kind: 'long' | 'short') => ({
    id: `${id.slice(2, 10)}${kind[0]}${n}`.padEnd(11, '0'),
    title: `Fault case ${kind} ${n}`,
    views: 1_000 + n,
    publishedMs: now - (n + 1) * DAY_MS,
    channels: [id],
    kind,
    language: 'en',
    durationSeconds: kind === 'short' ? 30 : 600,
  });
  return {
    id,
    handle: `@${id.slice(2, 14).toLowerCase()}`,
    title: `Fault case ${id.slice(2, 12)}`,
    subscribers: 12_000,
    views: 500_000,
    videoCount: 5,
    joined: '2020-01-02',
    tabs: ['videos', 'shorts'],
    uploads: [video(0, 'long'), video(1, 'long'), video(2, 'long'), video(3, 'short'), video(4, 'short')],
  };
}

/** Every row of every table that names the channel or one of its videos, but the job queue's and the call counters' (a failed job is a row). */
async function rowsAbout(harness: LiveHarness, channel: SiteChannel): Promise<Record<string, string[]>> {
  const names = [channel.id, ...channel.uploads.map((video) => video.id)];
  const tables = await harness.engine.store.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'");
  const out: Record<string, string[]> = {};
  for (const { name } of tables) {
    // The sweep's bookkeeping of attempts (live_refresh: last error, failures) is not a measurement.
    if (/^(jobs?|job_|queue|usage|rate|request_log|live_refresh|saved|folder|schema_)/.test(name)) continue;
    const rows = (await harness.engine.store.all<Record<string, unknown>>(`SELECT * FROM "${name}"`)).map((row) => JSON.stringify(row));
    const about = rows.filter((row) => names.some((id) => row.includes(id)));
    if (about.length > 0) out[name] = about;
  }
  return out;
}

const readOf = (path: string, key: Record<string, string>): SiteRead | null => {
  if (path.endsWith('/resolve_url')) return 'resolve';
  if (path.endsWith('/player')) return 'player';
  if (path.endsWith('/next')) return 'next';
  if (path.endsWith('/timedtext')) return 'captions';
  if (!path.endsWith('/browse')) return null;
  if (key.continuation?.startsWith('about-')) return 'about';
  if (key.params) return key.params.includes('zaG9ydH') ? 'shorts' : 'videos';
  return key.continuation ? null : 'home';
};

vi.stubEnv('TUBEKIT_PLATFORM_TIMEOUT', '0.5');

describeLive(
  'every live feature when one of its reads fails',
  (get) => {
    let user: Service;
    beforeAll(async () => {
      user = get().as('ultimate');
      await setJobWork(get().engine, 0);
    });

    FEATURES.forEach((feature, featureNo) => {
      it(`${feature.name}: an error or an unknown for each failed read, and nothing stored about the channel`, async () => {
        const harness = get();
        const site = harness.site!;
        const exercised = new Set<string>();
        for (const [readNo, read] of READS.entries()) {
          for (const [faultNo, fault] of FAULTS.entries()) {
            const channel = site.channels.get(caseId(featureNo, readNo, faultNo))!;
            if (feature.name.startsWith('refresh')) {
              const folder = (await user.call('folders.create', { name: `Faults ${readNo}-${faultNo}` })).folder;
              await user.call('saved.add', { channel_ids: [channel.id], folder_id: folder.id });
            }
            site.faults.set(`${read}:${channel.id}`, fault);
            let before = await rowsAbout(harness, channel);
            const accepted = async () => {
              before = await rowsAbout(harness, channel);
            };
            const seenFrom = harness.server!.seen.length;
            const outcome = await feature.run(user, channel, harness, accepted).then(
              (body) => ({ body }),
              (error: { status?: number; code?: string; message?: string }) => ({ error }),
            );
            const mine = [channel.id, channel.handle, ...channel.uploads.map((video) => video.id)];
            const asked = harness.server!.seen
              .slice(seenFrom)
              .some((request) => readOf(request.path, request.key) === read && mine.some((name) => JSON.stringify(request.key).includes(name)));
            const where = `${feature.name}, ${read} ${fault}`;
            if (process.env.FAULTS_DEBUG && where.includes(process.env.FAULTS_DEBUG)) console.log(where, JSON.stringify(harness.server!.seen.slice(seenFrom).map((r) => [r.path, r.key])), JSON.stringify(outcome).slice(0, 1500));
            if (!asked) {
              site.faults.delete(`${read}:${channel.id}`);
              continue; // this feature does not make that read
            }
            exercised.add(read);
            if ('body' in outcome) {
              const known = !feature.unknown?.(outcome.body as Record<string, unknown>);
              expect(known, `${where}: answered ${JSON.stringify(outcome.body).slice(0, 400)}`).toBe(false);
            } else {
              // Failed, never "does not exist".
              expect(outcome.error.status, `${where}: ${outcome.error.message}`).toBeGreaterThanOrEqual(500);
              expect(outcome.error.message, where).toMatch(/HTTP 404|HTTP 500|timed out|does not understand|could not read|could not be read/);
            }
            expect(await rowsAbout(harness, channel), where).toEqual(before);
            site.faults.delete(`${read}:${channel.id}`);
          }
        }
        expect(exercised.size, `${feature.name} made none of the reads`).toBeGreaterThan(0);
      }, 120_000);
    });
  },
  {
    site: (site, clock) => {
      FEATURES.forEach((_, featureNo) => READS.forEach((_, readNo) => FAULTS.forEach((_, faultNo) => site.add(faultChannel(caseId(featureNo, readNo, faultNo), clock.now())))));
    },
    jobTiming: { platformRetries: 0 },
  },
);
