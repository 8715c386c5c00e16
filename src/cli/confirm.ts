import type { IO } from './io.js';
import { cancelled, usageError } from '../core/client-errors.js';

/**
 * Asks before a destructive step. `--yes` skips the question; without a terminal there is no
 * one to ask, so the command refuses rather than guessing.
 */
export async function confirmOrAbort(io: IO, question: string, yes: boolean | undefined): Promise<void> {
  if (yes) return;
  if (!io.canPrompt) throw usageError(`${question.replace(/\?$/, '')} needs confirmation.`, 'Pass --yes to confirm without a prompt.');
  const { confirm } = await import('@inquirer/prompts');
  const answer = await confirm({ message: question, default: false }, { output: io.streams.stderr as never });
  if (!answer) throw cancelled('Cancelled; nothing was changed.');
}
