/** U+0000 in any text field is a 400 naming the field, on both engines, before anything reads or stores it. */
import { expect, it } from 'vitest';
import { describeEachEngine, failure } from '../support/engines.js';

describeEachEngine('NUL characters in input', (get) => {
  it('refuses a NUL byte in a search, a path parameter, a name and an idempotency key, naming the field', async () => {
    const service = get().as();
    const cases: Array<[Parameters<typeof service.call>[0], Record<string, unknown>, string]> = [
      ['terminated.search', { q: 'music\u0000' }, 'q'],
      ['cms.networks', { q: '\u0000' }, 'q'],
      ['jobs.status', { job_id: '\u0000' }, 'job_id'],
      ['folders.create', { name: 'Cook\u0000ing' }, 'name'],
      ['channels.process', { channel: '@someone', idempotency_key: 'k\u0000' }, 'idempotency_key'],
      ['saved.add', { channel_ids: ['UCaaaaaaaaaaaaaaaaaaaaaa', 'UC\u0000'] }, 'channel_ids[1]'],
    ];
    for (const [route, input, field] of cases) {
      const error = await failure(service.call(route, input as never));
      expect(error.status, route).toBe(400);
      expect(error.message, route).toBe(`Invalid request: ${field}: must not contain a NUL character (U+0000).`);
    }
    expect((await service.call('folders.list', {})).folders).toEqual([]);
  });
});
