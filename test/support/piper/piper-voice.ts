/**
 * A tiny Piper voice made on the spot by make-voice.py (Debian's python3-onnx): a real ONNX graph
 * with a Piper VITS model's inputs, output and config, whose "speech" is a tone 256 samples a
 * phoneme id long. No model is ever downloaded.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'make-voice.py');
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
