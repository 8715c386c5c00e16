import type { Command } from 'commander';
import type { Provider } from '../../core/schemas/voices.js';
import type { CliApp } from '../app.js';
import { completesWith } from '../completion/dynamic.js';
import { usageError } from '../../core/client-errors.js';
import { withExamples } from '../help.js';
import { printRecord } from '../output.js';
import { saveServiceFile } from '../save-file.js';
import { checkOutputTarget } from '../speech/output-target.js';
import { normalizeProvider, providerOption } from '../speech/provider-option.js';
import { readScript } from '../speech/script-input.js';
import { promptForVoice } from '../speech/voice-prompt.js';
import { failIfFailed, taskJobFields, watchTaskJob } from '../speech/watch-task-job.js';
import { parseTimeoutSeconds } from '../watch.js';

interface GenerateOptions {
  file?: string;
  voice?: string;
  provider?: string;
  title?: string;
  speakingRate?: string;
  temperature?: string;
  model?: string;
  speed?: string;
  pitch?: string;
  volume?: string;
  stability?: string;
  similarityBoost?: string;
  style?: string;
  srt?: boolean;
  watch?: boolean;
  output?: string;
  force?: boolean;
  timeout?: string;
}

/** The flags each provider takes; another provider's would be silently ignored, so they are refused. */
const PROVIDER_FLAGS: Record<Provider, Array<[flag: string, option: keyof GenerateOptions]>> = {
  stealth: [['--speaking-rate', 'speakingRate'], ['--temperature', 'temperature'], ['--model', 'model']],
  alt: [['--speed', 'speed'], ['--pitch', 'pitch'], ['--volume', 'volume']],
  elevenlabs: [['--model', 'model'], ['--stability', 'stability'], ['--similarity-boost', 'similarityBoost'], ['--style', 'style'], ['--speed', 'speed'], ['--srt', 'srt']],
};

function checkProviderFields(provider: Provider, options: GenerateOptions): void {
  const own = new Set(PROVIDER_FLAGS[provider].map(([flag]) => flag));
  const wrongFlag = Object.values(PROVIDER_FLAGS)
    .flat()
    .find(([flag, option]) => !own.has(flag) && options[option] !== undefined)?.[0];
  if (wrongFlag) {
    throw usageError(`${wrongFlag} does not apply to ${provider} voices.`, `${provider} voices take ${PROVIDER_FLAGS[provider].map(([flag]) => flag).join(', ')}.`);
  }
}

export function registerGenerate(program: Command, app: CliApp): void {
  const generate = withExamples(
    program
      .command('generate [script]')
      .description('Turn text into speech: queues a job; --watch waits, -o saves the MP3')
      .option('-f, --file <path>', 'read the script from a file (- for stdin)')
      .option('--voice <voice_id>', 'voice to speak with (prompted for on a terminal)')
      .addOption(providerOption('stealth (default), alt, or elevenlabs (needs an ElevenLabs key where the engine runs)'))
      .option('--title <title>', 'title of the generation')
      .option('--speaking-rate <n>', 'stealth: pace, 0.5 to 2 (1 = the voice\'s own)')
      .option('--temperature <n>', 'stealth: expressiveness, 0 to 2')
      .option('--model <model>', 'stealth: model version (1.5 or 2.0); elevenlabs: model_id (default eleven_multilingual_v2)')
      .option('--speed <n>', 'alt: pace, 0.5 to 2; elevenlabs: 0.7 to 1.2')
      .option('--pitch <semitones>', 'alt: pitch shift, -12 to 12')
      .option('--volume <n>', 'alt: loudness, 0.1 to 10 (1 = normal)')
      .option('--stability <n>', 'elevenlabs: 0 to 1')
      .option('--similarity-boost <n>', 'elevenlabs: 0 to 1')
      .option('--style <n>', 'elevenlabs: 0 to 1')
      .option('--srt', 'elevenlabs: also make the SRT transcript (stealth and alt always do)')
      .option('--watch', 'wait until the audio is ready and print the finished job')
      .option('-o, --output <file>', 'save the audio to this file (- for stdout); implies --watch')
      .option('--force', 'with -o: overwrite a file that already exists')
      .option('--timeout <seconds>', 'with --watch: stop waiting after this long (exit 10)'),
    [
      'tubekit generate "Hello from tubekit." --voice espeak-en-us --watch -o hello.mp3',
      'tubekit generate --file script.txt --voice espeak-en-us-f3 --speaking-rate 1.2 -o narration.mp3 --force   # replaces narration.mp3',
      'echo "Hola a todos." | tubekit generate - --voice espeak-es -o - > hola.mp3',
      'tubekit generate "Queued for later." --voice espeak-en-us       # prints the job id and returns',
      'tubekit generate --file script.txt --provider elevenlabs --voice JBFqnCBsd6RMkjVDRZzb --model eleven_v3 --stability 0.5 --srt -o story.mp3',
    ],
  );
  completesWith(generate, 'voice', '--voice');
  generate.action(async (scriptArgument: string | undefined, options: GenerateOptions) => {
    const timeoutSeconds = parseTimeoutSeconds(options.timeout, Boolean(options.watch) || options.output !== undefined);
    const force = Boolean(options.force);
    if (options.output !== undefined) checkOutputTarget(app, options.output, force);
    const provider = normalizeProvider(options.provider) ?? 'stealth';
    checkProviderFields(provider, options);
    const script = await readScript(app.io, scriptArgument, options.file);
    const voiceId = options.voice ?? (await promptForVoice(app, provider));

    const submitted = await app.call('generate', {
      script,
      voice_id: voiceId,
      provider,
      custom_title: options.title,
      // Numbers travel as given; the service checks their ranges and names the field when wrong.
      speaking_rate: options.speakingRate as never,
      temperature: options.temperature as never,
      stealth_model: provider === 'stealth' ? (options.model as never) : undefined,
      model_id: provider === 'elevenlabs' ? options.model : undefined,
      speed: options.speed as never,
      pitch: options.pitch as never,
      volume: options.volume as never,
      stability: options.stability as never,
      similarity_boost: options.similarityBoost as never,
      style: options.style as never,
      generate_srt: options.srt,
    });

    if (!options.watch && options.output === undefined) {
      await app.render(submitted, (body) => app.io.out(body.job_id));
      if (!app.json) app.io.note(`Queued. Follow it with: tubekit job ${submitted.job_id} --watch`);
      return;
    }

    const job = await watchTaskJob(app, submitted.job_id, { timeoutSeconds, output: options.output, type: 'generation' });
    if (options.output === '-') {
      // stdout carries the audio alone.
      failIfFailed(job);
      await saveServiceFile(app, job.audio_url!, '-', { force });
      return;
    }
    if (options.output !== undefined && job.status === 'completed') {
      await saveServiceFile(app, job.audio_url!, options.output, { force });
      app.io.note(`Saved ${options.output} (${job.audio_duration_seconds} s of audio).`);
    }
    await app.render(job, (body) => printRecord(app.io, taskJobFields(body)));
    failIfFailed(job);
  });
}
