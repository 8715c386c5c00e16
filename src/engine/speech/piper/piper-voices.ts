/**
 * Installed Piper voices: one directory each under `<files dir>/voices/piper/<name>/` holding the
 * model (with the metadata sherpa-onnx reads added), its tokens, the original config and our
 * record of it. They belong to the engine (an operator installs them), not to a user.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { withOnnxMetadata } from './onnx-metadata.js';
import { parsePiperConfig, tokensFile, type PiperConfig } from './piper-config.js';

export const PIPER_ID_PREFIX = 'piper-';
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;

export interface PiperVoice {
  /** `piper-<name>`, the id generation takes. */
  voiceId: string;
  name: string;
  languageCode: string;
  languageName: string;
  sampleRate: number;
  sizeBytes: number;
  license: string | null;
  sha256: string;
  installedAt: string;
  dir: string;
}

export const piperRoot = (filesDir: string) => path.join(filesDir, 'voices', 'piper');

export class PiperVoiceError extends Error {
  override readonly name = 'PiperVoiceError';
}

/** Installs (or replaces) a voice from its model bytes and config text; answers what was installed. */
export function installPiperVoice(filesDir: string, name: string, model: Buffer, configText: string, configFile: string): PiperVoice {
  if (!NAME.test(name)) throw new PiperVoiceError(`"${name}" cannot name a voice: use letters, digits, ".", "_" and "-" (e.g. en_US-lessac-medium).`);
  const config: PiperConfig = parsePiperConfig(configText, configFile);
  if (model.length < 16 || model[0] !== 0x08) throw new PiperVoiceError(`The model of ${name} is not an ONNX file.`);
  const root = piperRoot(filesDir);
  const dir = path.join(root, name);
  const partial = `${dir}.${process.pid}.partial`;
  fs.rmSync(partial, { recursive: true, force: true });
  fs.mkdirSync(partial, { recursive: true });
  const metadata = {
    model_type: 'vits',
    comment: 'piper',
    language: config.languageName,
    voice: config.espeakVoice,
    has_espeak: 1,
    n_speakers: config.speakers,
    sample_rate: config.sampleRate,
  };
  fs.writeFileSync(path.join(partial, 'model.onnx'), withOnnxMetadata(model, metadata));
  fs.writeFileSync(path.join(partial, 'tokens.txt'), tokensFile(config));
  fs.writeFileSync(path.join(partial, 'config.json'), configText);
  const voice: Omit<PiperVoice, 'dir'> = {
    voiceId: PIPER_ID_PREFIX + name,
    name,
    languageCode: config.languageCode,
    languageName: config.languageName,
    sampleRate: config.sampleRate,
    sizeBytes: model.length,
    license: config.license,
    sha256: createHash('sha256').update(model).digest('hex'),
    installedAt: new Date().toISOString(),
  };
  fs.writeFileSync(path.join(partial, 'voice.json'), JSON.stringify(voice, null, 2));
  fs.rmSync(dir, { recursive: true, force: true });
  fs.renameSync(partial, dir);
  return { ...voice, dir };
}

export function listPiperVoices(filesDir: string): PiperVoice[] {
  const root = piperRoot(filesDir);
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root)
    .filter((entry) => !entry.endsWith('.partial') && fs.existsSync(path.join(root, entry, 'voice.json')))
    .sort()
    .map((entry) => ({ ...(JSON.parse(fs.readFileSync(path.join(root, entry, 'voice.json'), 'utf8')) as Omit<PiperVoice, 'dir'>), dir: path.join(root, entry) }));
}

export function findPiperVoice(filesDir: string, voiceId: string): PiperVoice | undefined {
  if (!voiceId.startsWith(PIPER_ID_PREFIX)) return undefined;
  return listPiperVoices(filesDir).find((voice) => voice.voiceId === voiceId);
}

/** True when the voice was there. */
export function uninstallPiperVoice(filesDir: string, name: string): boolean {
  const bare = name.startsWith(PIPER_ID_PREFIX) && !fs.existsSync(path.join(piperRoot(filesDir), name)) ? name.slice(PIPER_ID_PREFIX.length) : name;
  if (!NAME.test(bare)) return false;
  const dir = path.join(piperRoot(filesDir), bare);
  if (!fs.existsSync(path.join(dir, 'voice.json'))) return false;
  fs.rmSync(dir, { recursive: true, force: true });
  return true;
}
