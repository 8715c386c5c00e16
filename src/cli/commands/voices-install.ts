/**
 * `voices install <path|URL>` and `voices uninstall <name>`: Piper voices for the embedded
 * engine's stealth catalog, kept in its files dir. A voice is its `.onnx` model with the
 * `.onnx.json` config beside it; a URL is downloaded with progress, within a size limit, and
 * checked against --sha256 when given.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Command } from 'commander';
import { notFound } from '../../core/errors.js';
import type { CliApp } from '../app.js';
import { usageError } from '../../core/client-errors.js';
import { examples } from '../help.js';
import { printRecord } from '../output.js';
import { transferProgress } from '../transfer-progress.js';
import { refuseRemoteFlags } from './engine/local-only.js';

/** The largest Piper models are about 120 MB. */
export const PIPER_MODEL_MAX_BYTES = 500 * 1024 * 1024;
const PIPER_CONFIG_MAX_BYTES = 1024 * 1024;

async function download(app: CliApp, url: string, maxBytes: number, what: string, progress: boolean): Promise<Buffer> {
  const response = await fetch(url, { headers: { 'user-agent': 'tubekit' } }).catch((error: Error) => {
    throw usageError(`Could not download ${what} from ${url}: ${(error as { cause?: { code?: string } }).cause?.code ?? error.message}.`);
  });
  if (!response.ok || !response.body) throw usageError(`Could not download ${what}: ${url} answered HTTP ${response.status}.`);
  const declared = Number(response.headers.get('content-length')) || undefined;
  if (declared !== undefined && declared > maxBytes) throw usageError(`${what} is ${declared} bytes, more than the ${maxBytes}-byte limit.`);
  const meter = progress ? transferProgress(app.io, declared) : undefined;
  const source = Readable.fromWeb(response.body as never);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of meter ? source.pipe(meter.meter) : source) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) {
      source.destroy();
      throw usageError(`${what} is more than the ${maxBytes}-byte limit; stopped downloading.`);
    }
    chunks.push(chunk as Buffer);
  }
  meter?.finish();
  return Buffer.concat(chunks);
}

/** The model and its config, from a local `.onnx` (or a directory holding one) or a URL. */
async function readVoice(app: CliApp, source: string): Promise<{ name: string; model: Buffer; config: string; configFile: string }> {
  if (/^https?:\/\//i.test(source)) {
    const name = path.basename(new URL(source).pathname).replace(/\.onnx$/i, '');
    const model = await download(app, source, PIPER_MODEL_MAX_BYTES, `the model ${name}.onnx`, true);
    const configUrl = `${source.replace(/[?#].*$/, '')}.json`;
    const config = (await download(app, configUrl, PIPER_CONFIG_MAX_BYTES, `its config ${name}.onnx.json`, false)).toString('utf8');
    return { name, model, config, configFile: configUrl };
  }
  let file = path.resolve(source);
  if (fs.statSync(file, { throwIfNoEntry: false })?.isDirectory()) {
    const models = fs.readdirSync(file).filter((entry) => entry.endsWith('.onnx'));
    if (models.length !== 1) throw usageError(`${file} holds ${models.length} .onnx models; name the one to install.`);
    file = path.join(file, models[0]!);
  }
  if (!fs.existsSync(file)) throw usageError(`${file} does not exist.`, 'Give the voice\'s .onnx file (its .onnx.json beside it), a directory holding them, or a URL.');
  const configFile = `${file}.json`;
  if (!fs.existsSync(configFile)) throw usageError(`${configFile} is missing: a Piper voice is its .onnx model and the .onnx.json config published with it.`);
  return { name: path.basename(file).replace(/\.onnx$/i, ''), model: fs.readFileSync(file), config: fs.readFileSync(configFile, 'utf8'), configFile };
}

export function registerVoicesInstall(voices: Command, app: CliApp): void {
  refuseRemoteFlags(
    voices
      .command('install <path-or-url>')
      .description('Install a Piper voice (.onnx + .onnx.json) into the embedded engine\'s stealth catalog as piper-<name>')
      .addHelpText('before', examples([
        'tubekit voices install ~/voices/en_US-lessac-medium.onnx',
        'tubekit voices install https://example.org/piper/en_US-lessac-medium.onnx --sha256 <hex>',
        'tubekit generate "Hello." --voice piper-en_US-lessac-medium -o hello.mp3',
      ]))
      .option('--name <name>', 'install under this name (default: the model\'s file name)')
      .option('--sha256 <hex>', 'refuse the model unless its SHA-256 is this'),
    app,
    'voices install',
  ).action(async (source: string, options: { name?: string; sha256?: string }) => {
    if (app.settings.mode !== 'local') throw usageError('Piper voices are installed into the embedded engine; this profile uses the remote service.', 'Add --local (and --data-dir) to install into a local engine.');
    const voice = await readVoice(app, source);
    const digest = createHash('sha256').update(voice.model).digest('hex');
    if (options.sha256 && options.sha256.toLowerCase() !== digest) throw usageError(`The model's SHA-256 is ${digest}, not ${options.sha256}; nothing was installed.`);
    const { installPiperVoice, PiperVoiceError } = await import('../../engine/speech/piper/piper-voices.js');
    const { PiperConfigError } = await import('../../engine/speech/piper/piper-config.js');
    let installed;
    try {
      installed = installPiperVoice(app.settings.filesDir, options.name ?? voice.name, voice.model, voice.config, voice.configFile);
    } catch (error) {
      if (error instanceof PiperVoiceError || error instanceof PiperConfigError) throw usageError(error.message);
      throw error;
    }
    const body = {
      success: true as const,
      voice: { voice_id: installed.voiceId, name: installed.name, language: installed.languageCode, sample_rate: installed.sampleRate, size_bytes: installed.sizeBytes, license: installed.license, sha256: installed.sha256 },
    };
    await app.render(body, (b) => printRecord(app.io, Object.entries(b.voice)));
    if (!app.json) app.io.note(`Installed. Speak with it: tubekit generate "Hello." --voice ${installed.voiceId} -o hello.mp3`);
  });

  refuseRemoteFlags(
    voices
      .command('uninstall <name>')
      .description('Remove an installed Piper voice (its name or its piper-<name> id)')
      .addHelpText('before', examples(['tubekit voices uninstall en_US-lessac-medium'])),
    app,
    'voices uninstall',
  ).action(async (name: string) => {
    if (app.settings.mode !== 'local') throw usageError('Piper voices live in the embedded engine; this profile uses the remote service.', 'Add --local to act on a local engine.');
    const { uninstallPiperVoice } = await import('../../engine/speech/piper/piper-voices.js');
    if (!uninstallPiperVoice(app.settings.filesDir, name)) throw notFound(`No Piper voice named "${name}" is installed. See them with \`tubekit voices list --provider stealth\`.`);
    await app.render({ success: true }, () => app.io.note(`Uninstalled ${name}.`));
  });
}
