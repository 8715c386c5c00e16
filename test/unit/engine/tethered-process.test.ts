/**
 * A tethered child dies with the process that started it. The death of the parent is what closes
 * the tether socket, so closing our end unanswered stands in for it here; SIGKILLing real CLI and
 * serve processes mid-render is tested in test/cli/orphans.test.ts.
 */
import type { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { execaTethered } from '../../../src/engine/tethered-process.js';
import { processesMentioning, running, waitUntil } from '../../support/processes.js';

describe.skipIf(process.platform === 'win32')('tethered child processes', () => {
  it('run the command as itself (same pid, output, exit code) and leave no watcher behind', async () => {
    const marker = `tether-test-${process.pid}-ok`;
    const child = execaTethered('sh', ['-c', 'echo "$0 $$"; exit 3', marker], { stdin: 'ignore', reject: false });
    const result = await child;
    expect(result.exitCode).toBe(3);
    expect(result.stdout).toBe(`${marker} ${child.pid}`);
    await waitUntil(() => processesMentioning(marker).length === 0, 'the watcher left', 5_000);
  });

  it('are killed when the tether closes without a word, as it does when this process dies', async () => {
    const marker = `tether-test-${process.pid}-cut`;
    const child = execaTethered(process.execPath, ['-e', 'setTimeout(() => {}, 30_000)', marker], { stdin: 'ignore', reject: false });
    await waitUntil(() => processesMentioning(marker).length === 2, 'the child and its watcher run');
    expect(running(child.pid!)).toBe(true);
    (child.stdio[3] as Writable).destroy();
    const result = await child;
    expect(result.signal).toBe('SIGKILL');
    await waitUntil(() => processesMentioning(marker).length === 0, 'the watcher left', 5_000);
  });
});
