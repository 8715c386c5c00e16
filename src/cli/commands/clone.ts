import type { Command } from 'commander';
import type { Provider } from '../../core/schemas/voices.js';
import type { CliApp } from '../app.js';
import { usageError } from '../../core/client-errors.js';
import { readUpload } from '../files.js';
import { withExamples } from '../help.js';
import { printRecord } from '../output.js';
import { normalizeProvider, providerOption } from '../speech/provider-option.js';

/** The flags each provider's clone takes. */
const CLONE_FLAGS: Record<Provider, string[]> = {
  stealth: ['--lang', '--transcription', '--description', '--tags', '--remove-noise'],
  alt: ['--language', '--no-noise-reduction'],
  elevenlabs: ['--description', '--remove-noise'],
};

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
      .addOption(providerOption('stealth (default; at most 15 MB and 30 s), alt (at most 5 MB, at least 30 s) or elevenlabs (at most 10 MB)'))
      .option('--lang <code>', 'stealth: language code such as EN_US, DE_DE (default EN_US)')
      .option('--language <name>', 'alt: language name such as English, Spanish (default English)')
      .option('--transcription <text>', 'stealth: what the sample says (sets the pace)')
      .option('--description <text>', 'stealth, elevenlabs: a description')
      .option('--tags <a,b>', 'stealth: comma-separated tags')
      .option('--remove-noise', 'stealth, elevenlabs: remove background noise from the sample')
      .option('--no-noise-reduction', 'alt: skip noise reduction (on by default)'),
    [
      'tubekit clone me.wav --name "My voice" --lang EN_US --transcription "Hello, this is me."',
      'tubekit clone interview.mp3 --name Host --provider alt --language Spanish',
      'tubekit clone me.wav --name Me --json | jq -r .voice.voice_id',
      'tubekit clone hello.mp3 --name Echo      # any MP3, e.g. one tubekit generate made',
    ],
  ).action(async (file: string, options: CloneOptions) => {
    const provider = normalizeProvider(options.provider) ?? 'stealth';
    const given = {
      '--lang': options.lang,
      '--transcription': options.transcription,
      '--description': options.description,
      '--tags': options.tags,
      '--remove-noise': options.removeNoise,
      '--language': options.language,
      '--no-noise-reduction': options.noiseReduction === false ? true : undefined,
    };
    const own = CLONE_FLAGS[provider];
    const wrongFlag = Object.entries(given).find(([flag, value]) => value !== undefined && !own.includes(flag))?.[0];
    if (wrongFlag) throw usageError(`${wrongFlag} does not apply to ${provider} clones.`, `${provider} clones take ${own.join(', ')}.`);
    const sample = readUpload(file, 'audio file');
    if (provider === 'elevenlabs') {
      const body = await app.call('voices.elevenlabs.clone', { voice_name: options.name, audio_file: sample, description: options.description, remove_background_noise: options.removeNoise ?? false });
      await app.render(body, (b) => printRecord(app.io, Object.entries({ ...b.voice, provider })));
      if (!app.json) app.io.note(`Cloned at ElevenLabs. Speak with it: tubekit generate --file script.txt --voice ${body.voice.voice_id} --provider elevenlabs -o story.mp3`);
      return;
    }
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
