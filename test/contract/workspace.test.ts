import { beforeAll, expect, it } from 'vitest';
import type { Service } from '../../src/core/service.js';
import { describeEachEngine, failure, type EngineHarness } from '../support/engines.js';

describeEachEngine('folders', (get, variant) => {
  let alice: Service;
  beforeAll(() => {
    alice = get().as('professional');
  });

  it('creates a folder with 201-style body and lists it with channel_count and a naive created_at', async () => {
    const created = await alice.call('folders.create', { name: 'Cooking' });
    expect(created).toMatchObject({ success: true, folder: { name: 'Cooking', channel_count: 0 } });
    const listed = await alice.call('folders.list', {});
    expect(listed.count).toBe(1);
    expect(listed.folders[0]).toEqual(created.folder);
    expect(listed.folders[0]!.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
  });

  it.runIf(variant.kind === 'remote')('answers 201 over HTTP for a create', async () => {
    const harness = get();
    const key = (await harness.engine.identity.createUserWithKey('starter', [])).key;
    const response = await fetch(`${harness.baseUrl}/api/folders`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Status check' }),
    });
    expect(response.status).toBe(201);
  });

  it('refuses names that are empty, blank or longer than 50 characters, and saves nothing', async () => {
    const user = get().as('starter');
    for (const name of ['', '   ', 'x'.repeat(51)]) {
      const error = await failure(user.call('folders.create', { name }));
      expect(error.status).toBe(400);
      expect(error.message).toMatch(/name/);
    }
    expect((await user.call('folders.create', { name: 'x'.repeat(50) })).folder.name).toHaveLength(50);
    expect((await user.call('folders.list', {})).count).toBe(1);
  });

  it('refuses a duplicate name with 409, ignoring case', async () => {
    const user = get().as('starter');
    await user.call('folders.create', { name: 'Gaming' });
    expect((await failure(user.call('folders.create', { name: 'gaming' }))).status).toBe(409);
    expect((await user.call('folders.list', {})).count).toBe(1);
  });

  it('lets two users use the same folder name', async () => {
    const [first, second] = [get().as('starter'), get().as('starter')];
    const a = (await first.call('folders.create', { name: 'Shared name' })).folder;
    const b = (await second.call('folders.create', { name: 'Shared name' })).folder;
    expect(b.id).not.toBe(a.id);
    expect((await first.call('folders.list', {})).folders).toEqual([a]);
    expect((await second.call('folders.list', {})).folders).toEqual([b]);
    // Within one user the name stays taken.
    expect((await failure(first.call('folders.create', { name: 'Shared name' }))).status).toBe(409);
  });

  it('enforces the per-plan folder limit with 403: Starter 15, Professional 50', async () => {
    for (const [plan, limit] of [['starter', 15], ['professional', 50]] as const) {
      const user = get().as(plan);
      for (let index = 0; index < limit; index += 1) await user.call('folders.create', { name: `Folder ${index}` });
      const error = await failure(user.call('folders.create', { name: 'One too many' }));
      expect(error.status).toBe(403);
      expect(error.message).toMatch(new RegExp(`folder limit \\(${limit} on your plan\\)`));
      expect((await user.call('folders.list', {})).count).toBe(limit);
    }
  });

  it('renames (200), refuses a taken name (409) and an unknown folder (404)', async () => {
    const user = get().as('starter');
    const a = (await user.call('folders.create', { name: 'A' })).folder;
    await user.call('folders.create', { name: 'B' });
    expect((await user.call('folders.rename', { id: a.id, name: 'A2' })).folder.name).toBe('A2');
    expect((await failure(user.call('folders.rename', { id: a.id, name: 'b' }))).status).toBe(409);
    expect((await failure(user.call('folders.rename', { id: 999_999, name: 'Z' }))).status).toBe(404);
    expect((await user.call('folders.rename', { id: a.id, name: 'a2' })).folder.name).toBe('a2');
  });

  it('keeps one user out of another user\'s folders (404) and changes nothing', async () => {
    const owner = get().as('starter');
    const stranger = get().as('starter');
    const folder = (await owner.call('folders.create', { name: 'Private' })).folder;
    expect((await failure(stranger.call('folders.rename', { id: folder.id, name: 'Mine' }))).status).toBe(404);
    expect((await failure(stranger.call('folders.delete', { id: folder.id }))).status).toBe(404);
    expect((await failure(stranger.call('folders.channels', { id: folder.id }))).status).toBe(404);
    const channel = (await get().engine.platform()).sampleChannels(1)[0]!.channel_id;
    await owner.call('saved.add', { channel_ids: [channel], folder_id: folder.id });
    const strangersFolder = (await stranger.call('folders.create', { name: 'Mine' })).folder;
    const move = { channel_id: channel, from_folder_id: folder.id, to_folder_id: strangersFolder.id };
    expect((await failure(stranger.call('saved.move', move))).status).toBe(404);
    expect((await failure(stranger.call('saved.remove', { channel_id: channel }))).status).toBe(404);
    await stranger.call('folders.delete', { id: strangersFolder.id });
    expect((await owner.call('folders.channels', { id: folder.id })).count).toBe(1);
    expect((await stranger.call('folders.list', {})).count).toBe(0);
    expect((await owner.call('folders.list', {})).folders[0]!.name).toBe('Private');
  });

  it('rejects a folder id that is not a positive integer with 400', async () => {
    expect((await failure(alice.call('folders.channels', { id: 'abc' as never }))).status).toBe(400);
    expect((await failure(alice.call('folders.delete', { id: 0 }))).status).toBe(400);
  });

  it('answers a missing or empty path id with a 400 naming it, as the engine does', async () => {
    const missing = await failure(alice.call('folders.rename', { name: 'Renamed' } as never));
    expect(missing.status).toBe(400);
    expect(missing.message).toMatch(/id: is required/);
    const empty = await failure(alice.call('saved.remove', { channel_id: '' }));
    expect(empty.status).toBe(400);
    expect(empty.message).toMatch(/channel_id/);
  });
}, { postgres: true });

describeEachEngine('saved channels', (get) => {
  let ids: string[];
  const sample = async (harness: EngineHarness) =>
    (await harness.engine.platform()).sampleChannels(40).map((channel) => channel.channel_id);
  beforeAll(async () => {
    ids = await sample(get());
  });

  it('saves channels and lists them newest save first with live 24h/48h deltas', async () => {
    const user = get().as('starter');
    const folder = (await user.call('folders.create', { name: 'Watch' })).folder;
    await user.call('saved.add', { channel_ids: [ids[0]!], folder_id: folder.id });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const saved = await user.call('saved.add', { channel_ids: [ids[1]!, ids[0]!], folder_id: folder.id });
    expect(saved).toMatchObject({ saved: 1, already_saved: 1, channel_count: 2 });
    const listing = await user.call('folders.channels', { id: folder.id });
    expect(listing.channels.map((channel) => channel.channel_id)).toEqual([ids[1], ids[0]]);
    const first = listing.channels[0]!;
    const deltas = (await get().engine.platform()).deltas(ids[1]!);
    expect(first).toMatchObject({ views_24h: deltas!.views_24h, views_48h: deltas!.views_48h, subs_24h: deltas!.subs_24h, subs_48h: deltas!.subs_48h });
    expect((await user.call('folders.list', {})).folders[0]!.channel_count).toBe(2);
  });

  it('refuses ids that are not UC ids, or unknown channels, with 400 and saves nothing', async () => {
    const user = get().as('starter');
    const folder = (await user.call('folders.create', { name: 'Strict' })).folder;
    const malformed = await failure(user.call('saved.add', { channel_ids: [ids[0]!, '@handle'], folder_id: folder.id }));
    expect(malformed.status).toBe(400);
    expect(malformed.message).toMatch(/channel_ids/);
    const unknown = await failure(user.call('saved.add', { channel_ids: [ids[0]!, 'UCAAAAAAAAAAAAAAAAAAAAAA'], folder_id: folder.id }));
    expect(unknown.status).toBe(400);
    expect((await failure(user.call('saved.add', { channel_ids: [], folder_id: folder.id }))).status).toBe(400);
    expect((await user.call('folders.channels', { id: folder.id })).count).toBe(0);
  });

  it('refuses a folder that is missing or not yours with 400', async () => {
    const owner = get().as('starter');
    const folder = (await owner.call('folders.create', { name: 'Owned' })).folder;
    const stranger = get().as('starter');
    expect((await failure(stranger.call('saved.add', { channel_ids: [ids[0]!], folder_id: folder.id }))).status).toBe(400);
    expect((await failure(stranger.call('saved.add', { channel_ids: [ids[0]!], folder_id: 987_654 }))).status).toBe(400);
    expect((await owner.call('folders.channels', { id: folder.id })).count).toBe(0);
  });

  it('fails a save that would push a folder past 30 channels whole, with 403, saving nothing', async () => {
    const user = get().as('ultimate');
    const folder = (await user.call('folders.create', { name: 'Full' })).folder;
    await user.call('saved.add', { channel_ids: ids.slice(0, 28), folder_id: folder.id });
    const error = await failure(user.call('saved.add', { channel_ids: ids.slice(28, 31), folder_id: folder.id }));
    expect(error.status).toBe(403);
    expect(error.message).toMatch(/30/);
    expect((await user.call('folders.channels', { id: folder.id })).count).toBe(28);
    await user.call('saved.add', { channel_ids: ids.slice(28, 30), folder_id: folder.id });
    expect((await user.call('folders.channels', { id: folder.id })).count).toBe(30);
  });

  it('holds the 30-channel cap under concurrent saves: one wins, the other fails whole', async () => {
    const user = get().as('starter');
    const folder = (await user.call('folders.create', { name: 'Raced' })).folder;
    const outcomes = await Promise.allSettled([
      user.call('saved.add', { channel_ids: ids.slice(0, 20), folder_id: folder.id }),
      user.call('saved.add', { channel_ids: ids.slice(20, 40), folder_id: folder.id }),
    ]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect((outcomes.find((outcome) => outcome.status === 'rejected') as PromiseRejectedResult).reason.status).toBe(403);
    expect((await user.call('folders.channels', { id: folder.id })).count).toBe(20);
  });

  it('removes a channel from every folder of the user, and 404s when it is not saved', async () => {
    const user = get().as('starter');
    const a = (await user.call('folders.create', { name: 'A' })).folder;
    const b = (await user.call('folders.create', { name: 'B' })).folder;
    await user.call('saved.add', { channel_ids: [ids[0]!, ids[1]!], folder_id: a.id });
    await user.call('saved.add', { channel_ids: [ids[0]!], folder_id: b.id });
    const other = get().as('starter');
    const theirs = (await other.call('folders.create', { name: 'Theirs' })).folder;
    await other.call('saved.add', { channel_ids: [ids[0]!], folder_id: theirs.id });

    expect(await user.call('saved.remove', { channel_id: ids[0]! })).toMatchObject({ removed_from: 2 });
    expect((await user.call('folders.channels', { id: a.id })).channels.map((c) => c.channel_id)).toEqual([ids[1]]);
    expect((await user.call('folders.channels', { id: b.id })).count).toBe(0);
    expect((await other.call('folders.channels', { id: theirs.id })).count).toBe(1);
    expect((await failure(user.call('saved.remove', { channel_id: ids[0]! }))).status).toBe(404);
  });

  it('moves a channel between folders, respecting the target cap', async () => {
    const user = get().as('ultimate');
    const from = (await user.call('folders.create', { name: 'From' })).folder;
    const to = (await user.call('folders.create', { name: 'To' })).folder;
    await user.call('saved.add', { channel_ids: [ids[0]!], folder_id: from.id });
    expect(await user.call('saved.move', { channel_id: ids[0]!, from_folder_id: from.id, to_folder_id: to.id })).toMatchObject({ success: true });
    expect((await user.call('folders.channels', { id: from.id })).count).toBe(0);
    expect((await user.call('folders.channels', { id: to.id })).channels[0]!.channel_id).toBe(ids[0]);
    expect((await failure(user.call('saved.move', { channel_id: ids[0]!, from_folder_id: from.id, to_folder_id: to.id }))).status).toBe(404);

    const full = (await user.call('folders.create', { name: 'Full target' })).folder;
    await user.call('saved.add', { channel_ids: ids.slice(1, 31), folder_id: full.id });
    const error = await failure(user.call('saved.move', { channel_id: ids[0]!, from_folder_id: to.id, to_folder_id: full.id }));
    expect(error.status).toBe(403);
    expect((await user.call('folders.channels', { id: to.id })).count).toBe(1);
  });

  it('deleting a folder unsaves its channels entirely (from every folder) and reports how many', async () => {
    const user = get().as('starter');
    const folder = (await user.call('folders.create', { name: 'Doomed' })).folder;
    const other = (await user.call('folders.create', { name: 'Kept' })).folder;
    await user.call('saved.add', { channel_ids: ids.slice(0, 3), folder_id: folder.id });
    await user.call('saved.add', { channel_ids: [ids[0]!, ids[5]!], folder_id: other.id });
    const stranger = get().as('starter');
    const theirs = (await stranger.call('folders.create', { name: 'Theirs' })).folder;
    await stranger.call('saved.add', { channel_ids: [ids[0]!], folder_id: theirs.id });

    expect(await user.call('folders.delete', { id: folder.id })).toEqual({ success: true, unsaved_channels: 3 });
    expect((await user.call('folders.channels', { id: other.id })).channels.map((channel) => channel.channel_id)).toEqual([ids[5]]);
    expect((await failure(user.call('saved.remove', { channel_id: ids[0]! }))).status).toBe(404);
    expect((await failure(user.call('folders.channels', { id: folder.id }))).status).toBe(404);
    expect((await stranger.call('folders.channels', { id: theirs.id })).count).toBe(1);
  });
}, { postgres: true });

describeEachEngine('channel resolution', (get) => {
  it('resolves @handles, handle URLs, /channel/ URLs, and returns raw ids unchanged', async () => {
    const user = get().as('starter');
    const [channel] = (await get().engine.platform()).sampleChannels(1);
    const handle = channel!.handle;
    for (const input of [handle, handle.toUpperCase(), `https://www.youtube.com/${handle}`, `youtube.com/${handle}/videos`, `https://m.youtube.com/channel/${channel!.channel_id}`]) {
      const body = await user.call('channels.resolve', { input });
      expect(body).toMatchObject({ success: true, channel_id: channel!.channel_id, handle, title: channel!.title });
    }
    const raw = await user.call('channels.resolve', { input: 'UCzzzzzzzzzzzzzzzzzzzzzz' });
    expect(raw.channel_id).toBe('UCzzzzzzzzzzzzzzzzzzzzzz');
  });

  it('answers with the hosted names (channel_name, channel_thumbnail) and says whether the channel is known', async () => {
    const user = get().as('starter');
    const [channel] = (await get().engine.platform()).sampleChannels(1);
    const known = await user.call('channels.resolve', { input: channel!.handle });
    expect(known).toMatchObject({ channel_name: channel!.title, channel_thumbnail: channel!.thumbnail_url, known: true });
    // A well-formed id no channel has comes back unchanged, with nothing made up for it.
    const unknown = await user.call('channels.resolve', { input: 'UCzzzzzzzzzzzzzzzzzzzzzz' });
    expect(unknown).toEqual({
      success: true,
      input: 'UCzzzzzzzzzzzzzzzzzzzzzz',
      channel_id: 'UCzzzzzzzzzzzzzzzzzzzzzz',
      handle: null,
      title: null,
      thumbnail_url: null,
      channel_name: null,
      channel_thumbnail: null,
      known: false,
    });
  });

  it('says clearly when an input is malformed (400) or names no channel (404)', async () => {
    const user = get().as('starter');
    const malformed = await failure(user.call('channels.resolve', { input: 'https://vimeo.com/123' }));
    expect(malformed.status).toBe(400);
    expect(malformed.message).toMatch(/@handle/);
    const missing = await failure(user.call('channels.resolve', { input: '@no-such-channel-here' }));
    expect(missing.status).toBe(404);
    expect((await failure(user.call('channels.resolve', { input: '' }))).status).toBe(400);
  });
});

describeEachEngine('authentication and plans', (get) => {
  it('answers 401 without a key or with an unknown or revoked key', async () => {
    const harness = get();
    expect((await failure(harness.withKey(undefined).call('folders.list', {}))).status).toBe(401);
    expect((await failure(harness.withKey('tk_notakey').call('folders.list', {}))).status).toBe(401);
    const created = (await harness.engine.identity.createUserWithKey('starter', []));
    await harness.withKey(created.key).call('folders.list', {});
    (await harness.engine.identity.revokeKey(created.key));
    expect((await failure(harness.withKey(created.key).call('folders.list', {}))).status).toBe(401);
  });

  it('requires an active subscription for every endpoint (403)', async () => {
    const error = await failure(get().as('none').call('folders.list', {}));
    expect(error.status).toBe(403);
    expect(error.message).toMatch(/subscription/);
  });

  it('reports health', async () => {
    expect(await get().as('starter').call('health', {})).toMatchObject({ status: 'healthy', active_jobs: 0, total_jobs: 0, max_concurrent: 5 });
  });
}, { postgres: true });
