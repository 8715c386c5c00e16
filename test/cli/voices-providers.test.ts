import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startElevenLabsFixture, type ElevenLabsFixture } from '../support/elevenlabs-fixture-server.js';
import { cliSandbox, type CliSandbox } from '../support/cli.js';

const story = Array.from({ length: 4 }, (_, index) => `Part ${index + 1} of a story about a river that keeps on moving forward.`).join(' ');

describe('tubekit CLI (built binary): ElevenLabs and the alt stand-in', () => {
  let cli: CliSandbox;
  let fixture: ElevenLabsFixture;
  let eleven: Record<string, string>;
  beforeAll(async () => {
    cli = cliSandbox();
    fixture = await startElevenLabsFixture();
    eleven = { TUBEKIT_ELEVENLABS_API_KEY: fixture.key, TUBEKIT_ELEVENLABS_BASE_URL: fixture.baseUrl };
  }, 60_000);
  afterAll(async () => {
    cli.cleanup();
    await fixture.close();
  });

  it('lists the ElevenLabs catalog with its filters, as a table or exactly the API body', async () => {
    const table = await cli.run(['voices', 'list', '--provider', 'elevenlabs', '--gender', 'female', '--sort', 'name'], { env: eleven });
    expect(table.exitCode).toBe(0);
    expect(table.stdout.trim().split('\n').map((line) => line.split('\t')[1])).toEqual(['Lily', 'Matilda', 'Sarah']);
    const json = await cli.run(['voices', 'list', '--provider', 'elevenlabs', '--page-size', '2', '--json'], { env: eleven });
    expect(JSON.parse(json.stdout)).toMatchObject({ success: true, has_more: true, voices: [{ name: 'Sarah' }, { name: 'George' }] });
    const misplaced = await cli.run(['voices', 'list', '--gender', 'female'], { env: eleven });
    expect([misplaced.exitCode, misplaced.stderr]).toEqual([2, expect.stringMatching(/--gender filters the ElevenLabs catalog: add --provider elevenlabs/)]);
    const unconfigured = await cli.run(['voices', 'list', '--provider', 'elevenlabs']);
    expect([unconfigured.exitCode, unconfigured.stderr]).toEqual([9, expect.stringMatching(/ElevenLabs is not configured/)]);
  });

  it('generates with --provider elevenlabs --model --stability --srt and refuses another provider\'s flags', async () => {
    const done = await cli.run(['generate', story, '--provider', 'elevenlabs', '--voice', 'JBFqnCBsd6RMkjVDRZzb', '--model', 'eleven_v3', '--stability', '0.3', '--srt', '--watch', '--json'], { env: eleven });
    expect(done.exitCode).toBe(0);
    const job = JSON.parse(done.stdout);
    expect(job).toMatchObject({ status: 'completed', provider: 'elevenlabs', upstream_characters: [story.length], transcript_url: expect.stringMatching(/\.srt$/) });
    expect(fixture.speeches.at(-1)).toMatchObject({ modelId: 'eleven_v3', voiceSettings: { stability: 0.3 } });
    const wrong = await cli.run(['generate', story, '--provider', 'alt', '--voice', 'x', '--stability', '0.3'], { env: eleven });
    expect([wrong.exitCode, wrong.stderr]).toEqual([2, expect.stringMatching(/--stability does not apply to alt voices/)]);
  });

  it('says when alt voices are the local stand-in', async () => {
    const listed = await cli.run(['voices', 'list', '--provider', 'alt']);
    expect(listed.exitCode).toBe(0);
    expect(listed.stderr).toMatch(/Alt voices here are the local stand-in/);
    const json = await cli.run(['voices', 'list', '--provider', 'alt', '--json']);
    expect(JSON.parse(json.stdout)).toEqual({ success: true, voices: [], upstream: 'stand-in' });
  });

  it('reports each speech provider in doctor without printing a key, and takes keys only from a prompt or stdin', async () => {
    const doctor = await cli.run(['doctor', '--json'], { env: eleven });
    const checks = JSON.parse(doctor.stdout).checks as Array<{ id: string; status: string; summary: string }>;
    expect(checks.find((check) => check.id === 'elevenlabs')).toMatchObject({ status: 'ok', summary: expect.stringMatching(/ElevenLabs at 127\.0\.0\.1:\d+, key set \(environment\): creator tier/) });
    expect(checks.find((check) => check.id === 'minimax')).toMatchObject({ status: 'skip', summary: expect.stringMatching(/not used/) });
    expect(doctor.stdout).not.toContain(fixture.key);
    const flag = await cli.run(['config', 'set', 'elevenlabs.api_key', 'abc']);
    expect(flag.exitCode).toBe(2);
    const piped = await cli.run(['config', 'set', 'elevenlabs.api_key'], { input: `${fixture.key}\n` });
    expect(piped.exitCode).toBe(0);
    expect((await cli.run(['config', 'get', 'elevenlabs.api_key'])).stdout.trim()).toBe('set');
    await cli.run(['config', 'set', 'elevenlabs.base_url', fixture.baseUrl]);
    const fromProfile = await cli.run(['voices', 'list', '--provider', 'elevenlabs', '--search', 'antoni', '--json']);
    expect(JSON.parse(fromProfile.stdout).voices.map((voice: { name: string }) => voice.name)).toEqual(['Antoni']);
  });
});
