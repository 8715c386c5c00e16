/**
 * `-o <file>` for text answers (an analysis): checked before anything is queued, written under a
 * temporary name and renamed, so an interrupted run leaves no half file behind.
 */
import fs from 'node:fs';
import { usageError } from './errors.js';
import { checkWritableFile } from './files.js';
import { claimPartFile, releasePartFile } from './part-file.js';

export function checkTextTarget(target: string): void {
  if (target === '-') throw usageError('-o - is stdout, where the text goes anyway: leave out -o, or give a file name.');
  checkWritableFile(target, 'analysis.txt');
}

export function saveText(target: string, text: string): void {
  const temporary = claimPartFile(target);
  try {
    fs.writeFileSync(temporary, text.endsWith('\n') ? text : `${text}\n`);
    fs.renameSync(temporary, target);
  } finally {
    releasePartFile(temporary);
  }
}
