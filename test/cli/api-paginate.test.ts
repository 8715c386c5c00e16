/** `tubekit api --paginate` and `-H` on the built binary: pages followed, headers sent, keys never traced. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliSandbox, type CliSandbox } from '../support/cli.js';

const lines = (text: string) => text.trim().split('\n').filter(Boolean);

describe('tubekit api --paginate and -H', () => {
  let cli: CliSandbox;
  let server: http.Server;
  let url: string;
  const received: http.IncomingHttpHeaders[] = [];
  beforeAll(async () => {
    cli = cliSandbox();
    // /api/things pages by has_more (3 pages); /api/capped refuses page 3 with a 400 naming page.
    server = http.createServer((request, response) => {
      received.push(request.headers);
      const address = new URL(request.url!, 'http://x');
      const page = Number(address.searchParams.get('page') ?? 1);
      const json = (status: number, body: unknown) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (address.pathname === '/api/things') json(200, { success: true, page, has_more: page < 3, things: [`t${page}`] });
      else if (address.pathname === '/api/capped') {
        if (page > 2) json(400, { success: false, error: 'Invalid request: page: must be an integer from 1 to 2' });
        else json(200, { success: true, page, per_page: 1, total: 10, rows: [page] });
      } else json(200, { success: true, ok: true });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    cli.cleanup();
  });

  it('follows every page of a route-table listing on the embedded engine, one body per page', async () => {
    const first = JSON.parse((await cli.run(['api', 'GET', '/api/terminated-channels?q=music&per_page=50'])).stdout);
    expect(first.total_pages).toBeGreaterThan(1);
    const result = await cli.run(['api', 'GET', '/api/terminated-channels?q=music&per_page=50', '--paginate']);
    expect(result.exitCode).toBe(0);
    const pages = lines(result.stdout).map((line) => JSON.parse(line));
    expect(pages.map((body) => body.page)).toEqual(Array.from({ length: first.total_pages }, (_, index) => index + 1));
    const ids = pages.flatMap((body) => body.channels.map((channel: { channel_id: string }) => channel.channel_id));
    expect(new Set(ids).size).toBe(Math.min(first.total, first.total_pages * 50));
    // --jq applies to each page's body.
    const jq = await cli.run(['api', 'GET', '/api/terminated-channels?q=music&per_page=50&page=2', '--paginate', '--jq', '.page']);
    expect(lines(jq.stdout)).toEqual(Array.from({ length: first.total_pages - 1 }, (_, index) => String(index + 2)));
  });

  it('follows has_more on any path of a remote service, and stops where the service refuses a page', async () => {
    const env = { TUBEKIT_API_KEY: 'tk_abcdefghijklmnop' };
    const things = await cli.run(['--base-url', url, 'api', 'GET', '/api/things', '--paginate', '--jq', '.things[0]'], { env });
    expect(lines(things.stdout)).toEqual(['t1', 't2', 't3']);
    const capped = await cli.run(['--base-url', url, 'api', 'GET', '/api/capped', '--paginate'], { env });
    expect(capped.exitCode).toBe(0);
    expect(lines(capped.stdout).map((line) => JSON.parse(line).page)).toEqual([1, 2]);
    expect(capped.stderr).toContain('Stopped at page 2: the service refused page 3');
    const single = await cli.run(['--base-url', url, 'api', 'GET', '/api/other', '--paginate'], { env });
    expect(lines(single.stdout)).toEqual(['{"success":true,"ok":true}']);
  });

  it('sends -H headers, and a -v trace shows them with credentials cut', async () => {
    received.length = 0;
    const env = { TUBEKIT_API_KEY: 'tk_envkeyenvkeyenvkey' };
    const result = await cli.run(
      ['--base-url', url, '-v', 'api', 'GET', '/api/other', '-H', 'X-Request-Id: abc-123', '-H', 'Authorization: Bearer tk_headerkeyheaderkey', '-H', 'X-Api-Key: plainsecretvalue'],
      { env },
    );
    expect(result.exitCode).toBe(0);
    expect(received[0]).toMatchObject({ 'x-request-id': 'abc-123', authorization: 'Bearer tk_headerkeyheaderkey', 'x-api-key': 'plainsecretvalue' });
    expect(result.stderr).toContain('X-Request-Id: abc-123');
    expect(result.stderr).toContain('(Authorization: Bearer [redacted]; X-Request-Id: abc-123; X-Api-Key: [redacted])');
    for (const secret of ['headerkeyheaderkey', 'envkeyenvkey', 'plainsecretvalue']) expect(result.stderr).not.toContain(secret);
  });

  it('refuses a malformed -H, a framing header, -H on the embedded engine, and --paginate on a POST, with exit 2', async () => {
    const env = { TUBEKIT_API_KEY: 'tk_abcdefghijklmnop' };
    const cases: Array<[string[], RegExp]> = [
      [['--base-url', url, 'api', 'GET', '/api/other', '-H', 'Bearer tk_notaheaderatall'], /-H takes "Name: value"/],
      [['--base-url', url, 'api', 'GET', '/api/other', '-H', 'Content-Length: 5'], /tubekit sets this header itself/],
      [['api', 'GET', '/api/folders', '-H', 'X-A: b'], /the embedded engine is not reached over HTTP/],
      [['api', 'POST', '/api/folders', '-f', 'name=x', '--paginate'], /use it with GET/],
    ];
    for (const [args, message] of cases) {
      const result = await cli.run(args, { env });
      expect(result.exitCode, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stderr).not.toContain('notaheaderatall');
    }
  });
});
