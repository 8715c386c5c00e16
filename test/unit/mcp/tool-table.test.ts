import { describe, expect, it } from 'vitest';
import { tooManyRequests, unauthorized } from '../../../src/core/errors.js';
import { routeNames, routes } from '../../../src/core/routes.js';
import { errorResult } from '../../../src/mcp/tool-calls.js';
import { selectTools, toolTable } from '../../../src/mcp/tool-table.js';
import { parseToolsets, TOOLSETS } from '../../../src/mcp/toolsets.js';

describe('the MCP tool table', () => {
  it('has one tool per route, and names no tool twice', () => {
    const primary = toolTable().filter((tool) => tool.route && !tool.aliasOf);
    expect(primary.map((tool) => tool.route)).toEqual(routeNames);
    const names = toolTable().map((tool) => tool.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[a-z]+(_[a-z]+)+$/);
  });

  it('sets the annotations from the method and the route', () => {
    for (const tool of toolTable().filter((entry) => entry.route)) {
      const { method, effect } = routes[tool.route!];
      if (method === 'GET' && effect === 'read') expect(tool.annotations, tool.name).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
      if (method === 'DELETE') expect(tool.annotations, tool.name).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
    }
    expect(toolTable().find((tool) => tool.name === 'resolve_channel')!.annotations.readOnlyHint).toBe(true);
    // GETs that store a verdict and spend the live-check quota are not read-only.
    expect(toolTable().find((tool) => tool.name === 'check_ad_monetization')!.annotations.readOnlyHint).toBe(false);
    expect(toolTable().find((tool) => tool.name === 'process_channel')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
  });

  it('describes each route: what it does, its limits, its errors and an example', () => {
    const clone = toolTable().find((tool) => tool.name === 'clone_alt_voice')!;
    expect(clone.description).toMatch(/^Clone an alt voice from an audio sample\. The sample: at least 30 s/);
    expect(clone.description).toContain('Limit: audio_file at most 5 MB.');
    expect(clone.description).toMatch(/Errors .*403: plan_required.*limit_reached/);
    expect(clone.description).toMatch(/\nExample: \{"voice_name":"Host"/);
    expect(toolTable().find((tool) => tool.name === 'download_video')!.description).toContain('Limit: The key needs the "generations" scope.');
  });

  it('gives generate_tts every provider and each provider\'s fields', () => {
    const tool = toolTable().find((entry) => entry.name === 'generate_tts')!;
    const properties = tool.inputSchema.properties as Record<string, unknown>;
    for (const field of ['speaking_rate', 'temperature', 'stealth_model', 'speed', 'pitch', 'volume', 'model_id', 'stability', 'similarity_boost', 'style', 'generate_srt']) {
      expect(properties, field).toHaveProperty(field);
    }
    expect(JSON.stringify(properties.provider)).toMatch(/"stealth","alt","elevenlabs"/);
    expect(tool.description).toMatch(/elevenlabs \(model_id, stability, similarity_boost, style 0–1, speed 0\.7–1\.2, generate_srt/);
  });

  it('keeps health and job tools in every selection', () => {
    const names = selectTools({ readOnly: false, toolsets: new Set(['alerts']) }).map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['health_check', 'get_job', 'wait_for_job', 'list_alerts', 'create_alert']));
    expect(names).not.toContain('list_folders');
  });
});

describe('parseToolsets', () => {
  it('reads a comma-separated list, and all (or nothing) as every toolset', () => {
    expect([...parseToolsets(' Voices, media ', '--toolsets')]).toEqual(['voices', 'media']);
    expect(parseToolsets(undefined, 'TUBEKIT_MCP_TOOLSETS').size).toBe(TOOLSETS.length);
    expect(parseToolsets('all', '--toolsets').size).toBe(TOOLSETS.length);
  });

  it('names a toolset it does not know, and lists the ones it does', () => {
    expect(() => parseToolsets('voices,vidoes', 'TUBEKIT_MCP_TOOLSETS')).toThrow('TUBEKIT_MCP_TOOLSETS names no toolset "vidoes".');
  });
});

describe('errorResult', () => {
  it('says when to retry after a 429', () => {
    const result = errorResult(tooManyRequests('The per-minute generation limit is reached.', 12.2));
    expect(result).toMatchObject({ isError: true, structuredContent: { error: { status: 429, code: 'rate_limited', retry_after_seconds: 13, message: 'The per-minute generation limit is reached. Try again in 13s.' } } });
    expect(result.content[0]).toEqual({ type: 'text', text: 'The per-minute generation limit is reached. Try again in 13s.' });
  });

  it('gives the message then the hint, as the CLI prints them, without any key', () => {
    const result = errorResult(unauthorized('Authentication failed: tk_abcdefghijklmnop is revoked.'));
    const text = (result.content[0] as { text: string }).text;
    expect(text.split('\n')).toHaveLength(2);
    expect(text).toMatch(/^Authentication failed: tk_\[redacted\] is revoked\.\nSend the key as/);
    expect(JSON.stringify(result)).not.toContain('abcdefghijklmnop');
  });
});

describe('resolve_handle', () => {
  it('takes a bare handle as the hosted tool does, and leaves other inputs (and the other names) alone', async () => {
    const { callTool } = await import('../../../src/mcp/tool-calls.js');
    const seen: unknown[] = [];
    const service = { call: async (_route: string, input: unknown) => (seen.push(input), { success: true }) } as never;
    const files = { transport: 'stdio' as const, fetchPublic: async () => { throw new Error('unused'); } };
    const tool = (name: string) => toolTable().find((entry) => entry.name === name)!;
    await callTool(tool('resolve_handle'), { input: 'goldenpiano' }, { service, files });
    await callTool(tool('resolve_handle'), { input: '@goldenpiano' }, { service, files });
    await callTool(tool('resolve_handle'), { input: 'https://www.youtube.com/@goldenpiano' }, { service, files });
    await callTool(tool('resolve_channel'), { input: 'goldenpiano' }, { service, files });
    expect(seen).toEqual([{ input: '@goldenpiano' }, { input: '@goldenpiano' }, { input: 'https://www.youtube.com/@goldenpiano' }, { input: 'goldenpiano' }]);
  });
});
