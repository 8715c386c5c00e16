/**
 * `tubekit video <url>` with the built binary: key/value lines when piped, the API body with
 * --json, a quality note from `download` under the partial-quality fault, and the exit codes
 * download gives for bad links (2 before any call, 2 for a missing video).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliSandbox, type CliSandbox } from '../support/cli.js';

// A video of the default sample world (seed 1), as `engine sample videos` lists it.
const HUMAN = 'https://youtu.be/GHGuclERoWA';

let cli: CliSandbox;
beforeAll(() => {
  cli = cliSandbox();
});
afterAll(() => cli.cleanup());

describe('tubekit video', () => {
  it("prints one video's metadata as key/value lines when piped, and yt-dlp's fields with --json", async () => {
    const piped = await cli.run(['video', HUMAN]);
    expect(piped.exitCode, piped.stderr).toBe(0);
    expect(piped.stdout).toMatch(/^id\tGHGuclERoWA\ntitle\tFree Kicks: 3 consejos que nadie te cuenta\nchannel\tHonest Running\n/);
    expect(piped.stdout).toMatch(/\nuploader_id\t@honestrunning\n/);
    expect(piped.stdout).toMatch(/\nupload_date\t\d{8}\n/);
    const json = await cli.run(['video', HUMAN, '--json']);
    const body = JSON.parse(json.stdout);
    expect(body).toMatchObject({ id: 'GHGuclERoWA', channel_id: 'UC-G4LyTAzHi0Xaj33Fjszrg', extractor: 'youtube', original_url: HUMAN });
    for (const field of ['duration', 'view_count', 'like_count', 'comment_count', 'timestamp']) expect(typeof body[field], field).toBe('number');
    const jq = await cli.run(['video', HUMAN, '--jq', '.channel']);
    expect(jq.stdout.trim()).toBe('Honest Running');
  });

  it('exits 2 for another platform or a non-link before any call, and for a video that does not exist', async () => {
    const other = await cli.run(['video', 'https://www.tiktok.com/@someone/video/7234567890123456789']);
    expect(other.exitCode).toBe(2);
    expect(other.stderr).toMatch(/tiktok\.com are not supported/);
    expect((await cli.run(['video', 'not a link'])).exitCode).toBe(2);
    const missing = await cli.run(['video', 'https://youtu.be/AAAAAAAAAAA']);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toMatch(/AAAAAAAAAAA does not exist/);
    expect(missing.stdout).toBe('');
  });

  it('download notes a lower quality than asked on stderr under download-partial-quality', async () => {
    expect((await cli.run(['engine', 'faults', 'set', 'download-partial-quality'])).exitCode).toBe(0);
    try {
      const result = await cli.run(['download', 'https://www.youtube.com/shorts/DgaCE_roV-w', '--quality', '1080p', '--end', '2', '--url-only']);
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.stderr).toMatch(/Delivered 720p, lower than the 1080p requested/);
      expect(result.stdout).toMatch(/720p/);
    } finally {
      await cli.run(['engine', 'faults', 'clear']);
    }
  });
});
