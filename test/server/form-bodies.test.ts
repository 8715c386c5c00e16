/**
 * The hosted documentation tells users to send every POST as form fields: the JSON routes take
 * multipart and urlencoded forms too, typed as each route's schema says, with the JSON limits and
 * errors. JSON stays the default and behaves as before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type EngineHarness } from '../support/engines.js';
import { pickVideos, watchUrl, type TestVideos } from '../support/media.js';

type Fields = Record<string, string | string[]>;
type Encoding = 'urlencoded' | 'multipart';

function formBody(fields: Fields, encoding: Encoding): URLSearchParams | FormData {
  const form = encoding === 'urlencoded' ? new URLSearchParams() : new FormData();
  for (const [name, value] of Object.entries(fields)) {
    for (const one of Array.isArray(value) ? value : [value]) form.append(name, one);
  }
  return form;
}

describe('serve: JSON routes take form bodies', () => {
  let harness: EngineHarness;
  let close: () => Promise<void>;
  let key: string;
  let videos: TestVideos;
  let channels: string[];
  beforeAll(async () => {
    ({ harness, close } = await createHarness('remote', { world: { seed: 1, channels: 300 } }));
    key = (await harness.engine.identity.createUserWithKey('ultimate', ['generations'])).key;
    videos = await pickVideos(harness.engine);
    const world = await harness.engine.platform();
    channels = world.sampleChannels(3).map((channel) => channel.channel_id);
  });
  afterAll(() => close());

  async function send(method: string, path: string, fields: Fields, encoding: Encoding, withKey = true) {
    const response = await fetch(`${harness.baseUrl}${path}`, {
      method,
      headers: withKey ? { authorization: `Bearer ${key}` } : {},
      body: formBody(fields, encoding),
    });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  }

  for (const encoding of ['urlencoded', 'multipart'] as const) {
    describe(encoding, () => {
      it('creates, renames and fills a folder: numbers from text, lists as repeated fields or JSON text', async () => {
        const created = await send('POST', '/api/folders', { name: `Form ${encoding}` }, encoding);
        expect(created.status).toBe(201);
        const id = created.body.folder.id as number;
        const renamed = await send('PATCH', `/api/folders/${id}`, { name: `Renamed ${encoding}` }, encoding);
        expect(renamed).toMatchObject({ status: 200, body: { folder: { name: `Renamed ${encoding}` } } });

        const repeated = await send('POST', '/api/saved-channels', { channel_ids: channels.slice(0, 2), folder_id: String(id) }, encoding);
        expect(repeated).toMatchObject({ status: 200, body: { folder_id: id, saved: 2 } });
        const asJson = await send('POST', '/api/saved-channels', { channel_ids: JSON.stringify(channels), folder_id: String(id) }, encoding);
        expect(asJson).toMatchObject({ status: 200, body: { saved: 1, already_saved: 2, channel_count: 3 } });
        const moved = await send('POST', '/api/saved-channels/move', { channel_id: channels[0]!, from_folder_id: String(id), to_folder_id: String(id) }, encoding);
        expect(moved.status).toBeLessThan(500);
      });

      it('creates an alert whose filters come as JSON text, typed as the schema says, and switches it off with 0', async () => {
        const created = await send('POST', '/api/alerts', {
          name: `Alert ${encoding}`,
          alert_type: 'breakout',
          filters: JSON.stringify({ min_subs: '1000', languages: ['English'] }),
        }, encoding);
        expect(created.status).toBe(201);
        expect(created.body.alert).toMatchObject({ alert_type: 'breakout', filters: { min_subs: 1000, languages: ['English'] }, enabled: true });
        const updated = await send('PATCH', `/api/alerts/${created.body.alert.id}`, { enabled: '0' }, encoding);
        expect(updated).toMatchObject({ status: 200, body: { alert: { enabled: false } } });
      });

      it('downloads with the quality and start given as text', async () => {
        const answer = await send('POST', '/api/download-video', { video_url: watchUrl(videos.human), format: 'subtitles', quality: '1080', start: '90' }, encoding);
        expect(answer).toMatchObject({ status: 200, body: { success: true, video_id: videos.human.video_id, format: 'subtitles' } });
      });

      it('resolves a channel, queues a channel job and an analysis, the key given as an api_key field', async () => {
        const resolved = await send('POST', '/api/channels/resolve', { input: channels[0]!, api_key: key }, encoding, false);
        expect(resolved).toMatchObject({ status: 200, body: { channel_id: channels[0] } });
        const job = await send('POST', '/api/process-channel', { channel: channels[1]!, type: 'longform', api_key: key }, encoding, false);
        expect(job).toMatchObject({ status: 200, body: { status: 'queued', type: 'longform', resolved_channel_id: channels[1] } });
        const analysis = await send('POST', '/api/analyze-video', { video_url: watchUrl(videos.short), prompt: 'Summarize it.', api_key: key }, encoding, false);
        expect(analysis).toMatchObject({ status: 200, body: { success: true, status: 'pending' } });
      });

      it('answers a bad field with a 400 naming it, and changes nothing', async () => {
        const before = await fetch(`${harness.baseUrl}/api/folders`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.json());
        const badNumber = await send('POST', '/api/saved-channels', { channel_ids: channels[0]!, folder_id: 'first' }, encoding);
        expect(badNumber).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
        expect(badNumber.body.error).toMatch(/folder_id: must be an integer/);
        const badJson = await send('POST', '/api/alerts', { name: 'Broken', filters: '{"min_subs": ' }, encoding);
        expect(badJson.status).toBe(400);
        expect(badJson.body.error).toMatch(/filters: must be a JSON object/);
        const twice = await send('POST', '/api/folders', { name: ['One', 'Two'] }, encoding);
        expect(twice.status).toBe(400);
        expect(twice.body.error).toMatch(/name: is given 2 times/);
        const badFlag = await send('POST', '/api/alerts', { name: 'Flagged', filters: JSON.stringify({ min_subs: 'many' }) }, encoding);
        expect(badFlag.body.error).toMatch(/filters\.min_subs: must be an integer/);
        const after = await fetch(`${harness.baseUrl}/api/folders`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.json());
        expect(after).toEqual(before);
      });

      it('keeps the JSON body limit', async () => {
        const huge = await send('POST', '/api/folders', { name: 'x', padding: 'y'.repeat(1024 * 1024 + 10) }, encoding);
        expect(huge.status).toBe(413);
      });

      it.runIf(encoding === 'multipart')('refuses a file part on a JSON route, naming it', async () => {
        const form = new FormData();
        form.append('name', new Blob(['folder']), 'name.txt');
        const response = await fetch(`${harness.baseUrl}/api/folders`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
        expect(response.status).toBe(400);
        expect((await response.json()).error).toMatch(/name: send it as a form field/);
      });
    });
  }

  it('takes a multipart part sent as application/json as it is (filters as a JSON part)', async () => {
    const boundary = 'tubekit-test-boundary';
    const body = [
      `--${boundary}`, 'Content-Disposition: form-data; name="name"', '', 'JSON part',
      `--${boundary}`, 'Content-Disposition: form-data; name="filters"', 'Content-Type: application/json', '', JSON.stringify({ max_subs: 5000 }),
      `--${boundary}--`, '',
    ].join('\r\n');
    const response = await fetch(`${harness.baseUrl}/api/alerts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
    });
    const answer = await response.json();
    expect(response.status, JSON.stringify(answer)).toBe(201);
    expect(answer.alert.filters).toEqual({ max_subs: 5000 });
  });

  it('still takes JSON as before, and refuses a JSON body that is not an object', async () => {
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const created = await fetch(`${harness.baseUrl}/api/folders`, { method: 'POST', headers, body: JSON.stringify({ name: 'Plain JSON' }) });
    expect(created.status).toBe(201);
    const list = await fetch(`${harness.baseUrl}/api/saved-channels`, { method: 'POST', headers, body: JSON.stringify({ channel_ids: channels[0], folder_id: 1 }) });
    expect(list.status).toBe(400);
    expect((await list.json()).error).toMatch(/channel_ids: must be an array/);
    const array = await fetch(`${harness.baseUrl}/api/folders`, { method: 'POST', headers, body: '[]' });
    expect(array.status).toBe(400);
  });

  it('takes the multipart routes as a plain form: generation, and the clones’ text fields (a file needs multipart)', async () => {
    const generated = await send('POST', '/api/generate-simple', { script: 'Hello from a plain form.', voice_id: 'espeak-en-us' }, 'urlencoded');
    expect(generated.status).toBeLessThan(300);
    expect(generated.body).toMatchObject({ success: true, job_id: expect.any(String) });
    // The key may ride in the form, as in a multipart one.
    const keyed = await send('POST', '/api/generate-simple', { script: 'Keyed.', voice_id: 'espeak-en-us', api_key: key }, 'urlencoded', false);
    expect(keyed.body).toMatchObject({ success: true });
    for (const [path, file, name] of [['/api/voices/clone', 'audioFile', 'displayName'], ['/api/voices/alt/clone', 'audio_file', 'voice_name']] as const) {
      const withFile = await send('POST', path, { [name]: 'Me', [file]: 'not a file' }, 'urlencoded');
      expect(withFile.status, path).toBe(400);
      expect(withFile.body.error, path).toBe(`Invalid request: ${file}: a file cannot be sent in an application/x-www-form-urlencoded body.`);
      expect(withFile.body.hint, path).toMatch(/multipart\/form-data/);
      // Without the file, the route's own answer: the sample is required.
      const without = await send('POST', path, { [name]: 'Me' }, 'urlencoded');
      expect(without.status, path).toBe(400);
      expect(without.body.error, path).toMatch(new RegExp(file));
    }
  });

  it('still refuses a body that is neither JSON nor a form', async () => {
    const response = await fetch(`${harness.baseUrl}/api/folders`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/xml' }, body: '<name>x</name>' });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toMatch(/Unsupported Content-Type/);
  });
});
