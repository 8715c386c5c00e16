import { parseBuffer } from 'music-metadata';
import { expect, it } from 'vitest';
import { clearFault, setFault } from '../../src/engine/faults.js';
import { CDN_BASE_URL_SETTING } from '../../src/engine/features/public-url.js';
import { upload, wavSample } from '../support/audio-fixtures.js';
import { finished, readAll } from '../support/task-jobs.js';
import { describeEachEngine, failure } from '../support/engines.js';

const SCRIPT = 'The river keeps moving, and so do we. Every morning brings a new chance to begin again.';
const SCRIPT_WORDS = SCRIPT.split(/\s+/);
/** Job ids are UUIDs, as the hosted service's. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describeEachEngine('generation', (get, variant) => {
  it('answers at once with a pending job, then completes with a real MP3 and a word-timed SRT', async () => {
    const service = get().as('professional');
    const submitted = await service.call('generate', { script: SCRIPT, voice_id: 'espeak-en-us-f3', custom_title: 'Morning' });
    expect(submitted).toEqual({ success: true, job_id: expect.stringMatching(UUID), status: 'pending' });

    const job = await finished(service, submitted.job_id);
    expect(job).toMatchObject({
      success: true,
      job_id: submitted.job_id,
      type: 'generation',
      status: 'completed',
      title: 'Morning',
      provider: 'stealth',
      voice_id: 'espeak-en-us-f3',
    });
    const expectedScheme = get().kind === 'embedded' ? /^file:\/\/.*\/cdn\/audio\/.*\.mp3$/ : /^http:\/\/127\.0\.0\.1:\d+\/cdn\/audio\/.*\.mp3$/;
    expect(job.audio_url).toMatch(expectedScheme);
    expect(job.transcript_url).toMatch(/\.srt$/);

    const mp3 = await readAll(await service.fetchFile(job.audio_url!));
    const meta = await parseBuffer(mp3, { mimeType: 'audio/mpeg', size: mp3.length }, { duration: true });
    expect(meta.format.container).toBe('MPEG');
    expect(meta.format.codec).toMatch(/Layer 3/);
    expect(meta.format.numberOfChannels).toBe(1);
    // About 175 words a minute: the length follows the text, not a fixed clip.
    const expectedSeconds = (SCRIPT_WORDS.length * 60) / 175;
    expect(meta.format.duration!).toBeGreaterThan(expectedSeconds * 0.6);
    expect(meta.format.duration!).toBeLessThan(expectedSeconds * 1.6);
    expect(job.audio_duration_seconds!).toBeCloseTo(meta.format.duration!, 0);

    const srt = (await readAll(await service.fetchFile(job.transcript_url!))).toString('utf8');
    const cues = srt.trim().split('\n\n');
    expect(cues.map((cue) => cue.split('\n')[2])).toEqual(SCRIPT_WORDS);
    const lastEnd = cues.at(-1)!.split('\n')[1]!.split(' --> ')[1]!;
    const [h, m, s] = lastEnd.replace(',', '.').split(':').map(Number);
    expect(h! * 3600 + m! * 60 + s!).toBeLessThanOrEqual(meta.format.duration! + 0.1);
  });

  // In-process, the files are file:// URLs, which have no content type.
  it.runIf(variant.kind === 'remote')('serves the files with audio and subtitle content types', async () => {
    const harness = get();
    const service = harness.as('ultimate');
    const job = await finished(service, (await service.call('generate', { script: 'Hello there.', voice_id: 'espeak-en-us' })).job_id);
    const audio = await fetch(job.audio_url!);
    expect(audio.headers.get('content-type')).toBe('audio/mpeg');
    const transcript = await fetch(job.transcript_url!);
    expect(transcript.headers.get('content-type')).toMatch(/^application\/x-subrip/);
  });

  it('names the title after the script when none is given, and speaks faster with speaking_rate', async () => {
    const service = get().as('ultimate');
    const normal = await finished(service, (await service.call('generate', { script: SCRIPT, voice_id: 'espeak-en-us' })).job_id);
    expect(normal.title).toBe('The river keeps moving, and so do we. Every morning brings…');
    const fast = await finished(
      service,
      (await service.call('generate', { script: SCRIPT, voice_id: 'espeak-en-us', speaking_rate: 2 })).job_id,
    );
    expect(fast.audio_duration_seconds!).toBeLessThan(normal.audio_duration_seconds! * 0.7);
  });

  it('speaks with the caller\'s stealth clone and with alt clones, under both provider names', async () => {
    const service = get().as('professional');
    const { voice: stealth } = await service.call('voices.stealth.clone', { displayName: 'Me', audioFile: upload(wavSample(3, { f0: 220 })) });
    const { voice: alt } = await service.call('voices.alt.clone', { voice_name: 'Alt me', audio_file: upload(wavSample(30, { f0: 0 })), language: 'German' });
    const jobs = [
      await service.call('generate', { script: 'Hello from my clone.', voice_id: stealth.voice_id }),
      await service.call('generate', { script: 'Hallo aus dem Klon.', voice_id: alt.voice_id, provider: 'alt', speed: 1.5, pitch: -3, volume: 2 }),
      await service.call('generate', { script: 'Noch einmal.', voice_id: alt.voice_id, provider: 'minimax' as 'alt' }),
    ];
    for (const { job_id } of jobs) {
      const job = await finished(service, job_id);
      expect(job.status).toBe('completed');
      expect(job.audio_url).toBeDefined();
    }
    expect((await finished(service, jobs[2]!.job_id)).provider).toBe('alt');
  });

  it('refuses a voice that is neither built in nor the caller\'s clone of that provider', async () => {
    const owner = get().as('professional');
    const { voice } = await owner.call('voices.stealth.clone', { displayName: 'Mine', audioFile: upload(wavSample(1)) });
    const other = get().as('professional');
    const cases = [
      () => owner.call('generate', { script: 'Hi.', voice_id: 'no-such-voice' }),
      () => owner.call('generate', { script: 'Hi.', voice_id: 'espeak-en-us', provider: 'alt' }),
      () => owner.call('generate', { script: 'Hi.', voice_id: voice.voice_id, provider: 'alt' }),
      () => other.call('generate', { script: 'Hi.', voice_id: voice.voice_id }),
    ];
    for (const attempt of cases) {
      const error = await failure(attempt());
      expect(error.status).toBe(400);
      expect(error.message).toMatch(/^Invalid request: voice_id: ".+" is not/);
    }
  });

  it('validates every field and names it', async () => {
    const service = get().as('professional');
    const expectations: [Record<string, unknown>, RegExp][] = [
      [{ voice_id: 'espeak-en-us' }, /script: is required/],
      [{ script: '   ', voice_id: 'espeak-en-us' }, /script: must not be empty/],
      [{ script: 'Hi.' }, /voice_id: is required/],
      [{ script: 'Hi.', voice_id: 'espeak-en-us', provider: 'other' }, /provider: must be one of: stealth, alt/],
      [{ script: 'Hi.', voice_id: 'espeak-en-us', speaking_rate: 2.5 }, /speaking_rate: must be a number from 0.5 to 2/],
      [{ script: 'Hi.', voice_id: 'espeak-en-us', temperature: -1 }, /temperature: must be a number from 0 to 2/],
      [{ script: 'Hi.', voice_id: 'espeak-en-us', provider: 'alt', speed: 0.1 }, /speed: must be a number from 0.5 to 2/],
      [{ script: 'Hi.', voice_id: 'espeak-en-us', provider: 'alt', pitch: 13 }, /pitch: must be an integer from -12 to 12/],
      [{ script: 'Hi.', voice_id: 'espeak-en-us', provider: 'alt', volume: 11 }, /volume: must be a number from 0.1 to 10/],
    ];
    for (const [input, message] of expectations) {
      const error = await failure(service.call('generate', input as never));
      expect(error.status).toBe(400);
      expect(error.message).toMatch(message);
    }
    // Refused requests queue nothing.
    expect((await service.call('health', {})).total_jobs).toBe(0);
  });

  it('still answers jobs whose ids an earlier version made (gen_…) in the same data dir', async () => {
    const service = get().as('professional');
    const current = await finished(service, (await service.call('generate', { script: 'Hi.', voice_id: 'espeak-en-us' })).job_id);
    const row = (await get().engine.jobs.queue.getByPublicId(current.job_id))!;
    const legacyId = `gen_legacy${get().kind}`;
    (await get().engine.jobs.enqueue({ kind: 'generation', userId: row.user_id, publicId: legacyId, input: JSON.parse(row.input) }));
    const legacy = await finished(service, legacyId);
    expect(legacy).toMatchObject({ job_id: legacyId, type: 'generation', status: 'completed' });
    expect(legacy.audio_url).toMatch(new RegExp(`/${legacyId}\\.mp3$`));
  });

  it('points audio URLs at a configured CDN base URL', async () => {
    const service = get().as('professional');
    await get().engine.settings.set(CDN_BASE_URL_SETTING, 'https://cdn.example.com/tubekit/');
    try {
      const job = await finished(service, (await service.call('generate', { script: 'Hi.', voice_id: 'espeak-en-us' })).job_id);
      expect(job.audio_url).toMatch(/^https:\/\/cdn\.example\.com\/tubekit\/audio\/\d{4}-\d\d\/[0-9a-f-]{36}\.mp3$/);
      expect(job.transcript_url).toBe(job.audio_url!.replace(/\.mp3$/, '.srt'));
    } finally {
      get().engine.settings.delete(CDN_BASE_URL_SETTING);
    }
  });

  it('holds scripts to the plan\'s maximum length', async () => {
    const pro = await failure(get().as('professional').call('generate', { script: 'a'.repeat(20_001), voice_id: 'espeak-en-us' }));
    expect(pro.status).toBe(400);
    expect(pro.message).toMatch(/script: is 20,001 characters long; the Professional plan allows at most 20,000/);
    const ultimate = await failure(get().as('ultimate').call('generate', { script: 'a'.repeat(50_001), voice_id: 'espeak-en-us' }));
    expect(ultimate.message).toMatch(/the Ultimate plan allows at most 50,000/);
    // Counted in characters, not UTF-16 units: 20,000 emoji fit a Professional script.
    await get().engine.settings.set('limits', { professional: { maxScriptCharacters: 4 } });
    get().engine.reloadLimits();
    try {
      const service = get().as('professional');
      await service.call('generate', { script: 'Hi 👋', voice_id: 'espeak-en-us' });
      expect((await failure(service.call('generate', { script: 'Hi 👋!', voice_id: 'espeak-en-us' }))).status).toBe(400);
    } finally {
      get().engine.settings.delete('limits');
      get().engine.reloadLimits();
    }
  });

  it('needs the Professional or Ultimate plan', async () => {
    const error = await failure(get().as('starter').call('generate', { script: 'Hi.', voice_id: 'espeak-en-us' }));
    expect(error.status).toBe(403);
    expect(error.code).toBe('plan_required');
    // The plan is the problem whatever the form says: no point fixing fields first.
    const invalid = await failure(get().as('starter').call('generate', { script: '', provider: 'nope' } as never));
    expect(invalid.status).toBe(403);
  });

  it('allows 30 generations a minute and answers the 31st with 429', async () => {
    const service = get().as('professional');
    // Refused requests do not use up the minute.
    await failure(service.call('generate', { script: 'Hi.', voice_id: 'nope' }));
    for (let i = 0; i < 30; i++) await service.call('generate', { script: 'Hi.', voice_id: 'espeak-en-us' });
    const error = await failure(service.call('generate', { script: 'Hi.', voice_id: 'espeak-en-us' }));
    expect(error.status).toBe(429);
    expect(error.message).toMatch(/Rate limit exceeded \(30 requests\/min\)\. Try again in \d+s\./);
    expect(error.retryAfterSeconds).toBeGreaterThan(0);
  });

  it('reports a failed synthesis as status failed with its error', async () => {
    const service = get().as('professional');
    await setFault(get().engine.settings, 'speech-synthesis');
    try {
      const job = await finished(service, (await service.call('generate', { script: 'Hi.', voice_id: 'espeak-en-us' })).job_id);
      expect(job.status).toBe('failed');
      expect(job.error).toMatch(/Speech synthesis failed/);
      expect(job.audio_url).toBeUndefined();
    } finally {
      await clearFault(get().engine.settings, 'speech-synthesis');
    }
  });
}, { postgres: true });
