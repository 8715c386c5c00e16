/**
 * A tiny Piper voice made on the spot by make-voice.py (Debian's python3-onnx): a real ONNX graph
 * with a Piper VITS model's inputs, output and config, whose "speech" is a tone 256 samples a
 * phoneme id long. No model is ever downloaded.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The script beside this module's source (the built copy under dist/ finds it up the tree). */
function findScript(): string {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    for (const candidate of [path.join(dir, 'make-voice.py'), path.join(dir, 'test', 'support', 'piper', 'make-voice.py')]) {
      if (fs.existsSync(candidate)) return candidate;
    }
    if (path.dirname(dir) === dir) throw new Error('make-voice.py not found');
  }
}
const SCRIPT = findScript();
const PYTHON = '/usr/bin/python3';
export const SAMPLES_PER_PHONEME = 256;

/** Whether this machine can build the voice (python3 with the onnx module). */
export function canMakePiperVoice(): boolean {
  try {
    execFileSync(PYTHON, ['-c', 'import onnx, numpy'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Writes `<dir>/<name>.onnx` and `<dir>/<name>.onnx.json`; answers the model's path. */
export function makePiperVoice(dir: string, name = 'en_US-test-x_low'): string {
  execFileSync(PYTHON, [SCRIPT, dir, name], { stdio: 'pipe' });
  return path.join(dir, `${name}.onnx`);
}
