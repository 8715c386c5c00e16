import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CliError } from '../../../src/core/client-errors.js';
import { filterWithJq, type JqEngine } from '../../../src/cli/jq.js';

const hasSystemJq = (() => {
  try {
    execFileSync('jq', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

const body = { folders: [{ id: 1, name: 'Cooking 料理' }, { id: 2, name: 'Piano' }], total: 2 };

describe.each<JqEngine>(['system', 'embedded'])('--jq with the %s engine', (engine) => {
  it.skipIf(engine === 'system' && !hasSystemJq)('prints strings raw and other values as JSON, compact when piped and indented on a terminal', async () => {
    expect(await filterWithJq(body, '.folders[].name', false, engine)).toBe('Cooking 料理\nPiano\n');
    expect(await filterWithJq(body, '.folders[0]', false, engine)).toBe('{"id":1,"name":"Cooking 料理"}\n');
    expect(await filterWithJq(body, '.folders[1]', true, engine)).toBe('{\n  "id": 2,\n  "name": "Piano"\n}\n');
    expect(await filterWithJq(body, '-.total', false, engine)).toBe('-2\n');
    expect(await filterWithJq(body, 'empty', false, engine)).toBe('');
  });

  it.skipIf(engine === 'system' && !hasSystemJq)('refuses an invalid expression as a usage error (exit 2), and a failing one with exit 1', async () => {
    const invalid = await filterWithJq(body, '.folders[', false, engine).catch((error: CliError) => error);
    expect(invalid).toBeInstanceOf(CliError);
    expect((invalid as CliError).exitCode).toBe(2);
    expect((invalid as CliError).message).toMatch(/^--jq: the expression is not valid jq: syntax error/);
    const failing = await filterWithJq(body, 'error("no")', false, engine).catch((error: CliError) => error);
    expect((failing as CliError).exitCode).toBe(1);
    expect((failing as CliError).message).toBe('--jq: no');
  });
});
