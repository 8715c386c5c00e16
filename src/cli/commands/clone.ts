import type { Command } from 'commander';
import type { CliApp } from '../app.js';
import { usageError } from '../errors.js';
import { readUpload } from '../files.js';
import { withExamples } from '../help.js';
import { printRecord } from '../output.js';
import { normalizeProvider, providerOption } from '../speech/provider-option.js';

interface CloneOptions {
  name: string;
  provider?: string;
  lang?: string;
  language?: string;
  transcription?: string;
  description?: string;
  tags?: string;
  removeNoise?: boolean;
  noiseReduction: boolean;
}

export function registerClone(program: Command, app: CliApp): void {
  withExamples(
    program
      .command('clone <audio-file>')
      .description('Clone a voice from an audio sample (MP3, WAV, M4A, OGG or WEBM)')
      .requiredOption('--name <name>', 'display name of the voice')
      .addOption(providerOption('stealth (default; at most 15 MB and 30 s) or alt (at most 5 MB, at least 30 s)'))
      .option('--lang <code>', 'stealth: language code such as EN_US, DE_DE (default EN_US)')
      .option('--language <name>', 'alt: language name such as English, Spanish (default English)')
      .option('--transcription <text>', 'stealth: what the sample says (sets the pace)')
      .option('--description <text>', 'stealth: a description')
      .option('--tags <a,b>', 'stealth: comma-separated tags')
      .option('--remove-noise', 'stealth: remove background noise from the sample')
      .option('--no-noise-reduction', 'alt: skip noise reduction (on by default)'),
    [
      'tubekit clone me.wav --name "My voice" --lang EN_US --transcription "Hello, this is me."',
      'tubekit clone interview.mp3 --name Host --provider alt --language Spanish',
      'tubekit clone me.wav --name Me --json | jq -r .voice.voice_id',
      'tubekit clone hello.mp3 --name Echo      # any MP3, e.g. one tubekit generate made',
    ],
  ).action(async (file: string, options: CloneOptions) => {
    const provider = normalizeProvider(options.provider) ?? 'stealth';
    const stealthOnly = { '--lang': options.lang, '--transcription': options.transcription, '--description': options.description, '--tags': options.tags, '--remove-noise': options.removeNoise };
    const wrongFlag =
      provider === 'alt'
        ? Object.entries(stealthOnly).find(([, value]) => value !== undefined)?.[0]
        : options.language !== undefined
          ? '--language'
          : options.noiseReduction === false
            ? '--no-noise-reduction'
            : undefined;
    if (wrongFlag) {
      throw usageError(`${wrongFlag} does not apply to ${provider} clones.`, provider === 'alt' ? 'Alt clones take --language and --no-noise-reduction.' : 'Stealth clones take --lang, --transcription, --description, --tags and --remove-noise.');
    }
    const sample = readUpload(file, 'audio file');
    const body =
      provider === 'stealth'
        ? await app.call('voices.stealth.clone', {
            displayName: options.name,
            audioFile: sample,
            langCode: options.lang?.toUpperCase() as never,
            transcription: options.transcription,
            description: options.description,
            tags: options.tags,
            removeBackgroundNoise: options.removeNoise ?? false,
          })
        : await app.call('voices.alt.clone', {
            voice_name: options.name,
            audio_file: sample,
            language: options.language as never,
            need_noise_reduction: options.noiseReduction,
          });
    await app.render(body, (b) => printRecord(app.io, Object.entries({ ...b.voice, provider })));
    // What the clone could not learn goes to the person on stderr, whatever the output mode.
    for (const warning of body.warnings ?? []) app.io.error(app.io.yellow(`warning: ${warning}`));
    if (!app.json) app.io.note(`Cloned. Speak with it: tubekit generate "Hello" --voice ${body.voice.voice_id}${provider === 'alt' ? ' --provider alt' : ''} -o hello.mp3`);
  });
}
