/**
 * `-o <file>` for text answers (an analysis): checked before anything is queued, written under a
 * temporary name and renamed, so an interrupted run leaves no half file behind.
 */
import fs from 'node:fs';
import path from 'node:path';
import { usageError } from './errors.js';
import { checkWritableFile } from './files.js';

export function checkTextTarget(target: string): void {
  if (target === '-') throw usageError('-o - is stdout, where the text goes anyway: leave out -o, or give a file name.');
  checkWritableFile(target, 'analysis.txt');
}

export function saveText(target: string, text: string): void {
  const temporary = path.join(path.dirname(path.resolve(target)), `.${path.basename(target)}.${process.pid}.part`);
  try {
    fs.writeFileSync(temporary, text.endsWith('\n') ? text : `${text}\n`);
    fs.renameSync(temporary, target);
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    throw error;
  }
}
