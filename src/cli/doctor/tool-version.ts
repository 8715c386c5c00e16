/** The first line a tool prints for `-version`, or why it could not be run. */
import { execa } from 'execa';

export async function toolVersionLine(command: string, args: string[]): Promise<{ found: true; line: string } | { found: false; reason: string }> {
  const result = await execa(command, args, { reject: false, timeout: 15_000, stdin: 'ignore' });
  if (result.failed || result.exitCode !== 0) {
    return { found: false, reason: (result as { code?: string }).code === 'ENOENT' ? 'not found' : (result.shortMessage ?? 'failed') };
  }
  return { found: true, line: String(result.stdout).split('\n')[0]!.trim() };
}
