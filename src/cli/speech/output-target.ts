import type { CliApp } from '../app.js';
import { usageError } from '../../core/client-errors.js';
import { checkOutputFile } from '../output-file.js';

/** `-o <file>` is checked before anything is queued, so a typo (or a taken name) costs no generation. */
export function checkOutputTarget(app: CliApp, target: string, force: boolean): void {
  if (target === '-') {
    // stdout can carry the audio or the JSON body, not both; and binary audio garbles a terminal.
    if (app.json) throw usageError('-o - writes the audio to stdout, where --json would write the body.', 'Save the audio to a file with -o <file>, or drop --json.');
    if (app.io.stdoutIsTerminal) throw usageError('-o - writes MP3 audio to stdout, which is a terminal.', 'Redirect it (-o - > speech.mp3 or | a player), or give a file name: -o speech.mp3.');
    return;
  }
  checkOutputFile(target, { force, example: 'speech.mp3' });
}
