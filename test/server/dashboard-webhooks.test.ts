/**
 * The alerts page's webhooks over plain HTTP with a signed-in session: an endpoint added through
 * the form shows its secret once, a refused URL is answered in place with nothing saved, the
 * latest deliveries are listed and a failed one can be resent, and another user sees none of it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordEvents } from '../../src/engine/features/events/outbox.js';
import { signIn, startDashboard, type DashboardServer } from '../support/dashboard.js';

/** hooks.example.test stands for a public receiver; every other name resolves nowhere. */
const lookup = async (host: string) => (host === 'hooks.example.test' ? ['93.184.216.34'] : []);

describe('dashboard: webhooks on the alerts page', () => {
  let dash: DashboardServer;
  let key: string;
  let session: { cookie: string; csrf: string };
  const page = async (path = '/alerts') => (await fetch(`${dash.url}${path}`, { headers: { cookie: session.cookie } })).text();
  const post = (path: string, fields: Array<[string, string]>) =>
    fetch(`${dash.url}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: session.cookie },
      body: new URLSearchParams([['_csrf', session.csrf], ...fields]).toString(),
    });
  const endpoints = async () => (await dash.engine.handle('webhooks.list', {}, await dash.engine.authenticate(key))) as { endpoints: Array<{ id: number; url: string; events: string[] }> };

  beforeAll(async () => {
    dash = await startDashboard({ seed: 4, channels: 60, terminated: 0 }, { workers: 0 }, { webhooks: { lookup } });
    key = await dash.key('professional');
    session = await signIn(dash.url, key);
  }, 60_000);
  afterAll(() => dash?.close());

  it('says there are no endpoints yet and names the JSON twins', async () => {
    const html = await page();
    expect(html).toContain('<h2 id="webhooks">Webhooks</h2>');
    expect(html).toContain('No webhook endpoints yet');
    expect(html).toContain('GET /api/webhooks · GET /api/webhooks/deliveries');
  });

  it('adds an endpoint for the chosen events and shows its secret once', async () => {
    const answer = await post('/alerts/webhooks', [['url', 'https://hooks.example.test/tubekit'], ['events', 'alert.triggered'], ['events', 'channel.new_upload']]);
    expect(answer.status).toBe(200);
    const html = await answer.text();
    const secret = /whsec_[A-Za-z0-9+/=]+/.exec(html)?.[0];
    expect(secret).toBeDefined();
    expect((await endpoints()).endpoints).toMatchObject([{ url: 'https://hooks.example.test/tubekit', events: ['alert.triggered', 'channel.new_upload'] }]);
    const again = await page();
    expect(again).toContain('https://hooks.example.test/tubekit');
    expect(again).not.toContain(secret!.slice(6));
  });

  it('answers a refused URL in place with the rule, saving nothing', async () => {
    const before = (await endpoints()).endpoints.length;
    for (const [url, rule] of [['http://hooks.example.test/x', /https only/], ['https://10.1.2.3/x', /private/]] as const) {
      const answer = await post('/alerts/webhooks', [['url', url], ['events', 'alert.triggered']]);
      expect(answer.status).toBe(400);
      const html = await answer.text();
      expect(html).toMatch(/<p class="error" role="alert">/);
      expect(html).toMatch(rule);
      expect(html).toContain(`value="${url}"`);
    }
    expect((await endpoints()).endpoints).toHaveLength(before);
  });

  it('lists the latest deliveries and resends a failed one', async () => {
    const user = await dash.engine.authenticate(key);
    await dash.engine.store.transaction((tx) => recordEvents(tx, [{ userId: user.userId, type: 'alert.triggered', at: Date.now(), data: { channel_id: 'UCx' } }]));
    const [delivery] = await dash.engine.store.all<{ id: number }>('SELECT id FROM webhook_deliveries');
    expect(await page()).toMatch(/alert\.triggered <code>evt_[0-9a-f]+<\/code>/);
    expect(await page()).not.toContain('aria-label="Resend delivery');
    // As when the retry schedule ran out.
    await dash.engine.store.run("UPDATE webhook_deliveries SET state = 'failed' WHERE id = ?", [delivery!.id]);
    const resend = await post(`/alerts/webhooks/deliveries/${delivery!.id}/redeliver`, []);
    expect(resend.status).toBe(303);
    expect(resend.headers.get('location')).toBe('/alerts#webhooks');
    expect((await dash.engine.store.get<{ state: string }>('SELECT state FROM webhook_deliveries WHERE id = ?', [delivery!.id]))!.state).toBe('pending');
  });

  it('shows another user none of it, and deletes the endpoint', async () => {
    const other = await signIn(dash.url, await dash.key('professional'));
    const theirs = await (await fetch(`${dash.url}/alerts`, { headers: { cookie: other.cookie } })).text();
    expect(theirs).toContain('No webhook endpoints yet');
    expect(theirs).not.toContain('hooks.example.test');
    const [endpoint] = (await endpoints()).endpoints;
    const deleted = await post(`/alerts/webhooks/${endpoint!.id}/delete`, []);
    expect(deleted.status).toBe(303);
    expect((await endpoints()).endpoints).toEqual([]);
  });
});
