/** `-o <file>` for text answers (an analysis), under the one -o policy (see output-file.ts). */
import { usageError } from '../core/client-errors.js';
import { checkOutputFile, writeFileAtomically } from './output-file.js';

export function checkTextTarget(target: string, force: boolean): void {
  if (target === '-') throw usageError('-o - is stdout, where the text goes anyway: leave out -o, or give a file name.');
  checkOutputFile(target, { force, example: 'analysis.txt' });
}

export async function saveText(target: string, text: string, force: boolean): Promise<void> {
  await writeFileAtomically(target, text.endsWith('\n') ? text : `${text}\n`, { force });
}
