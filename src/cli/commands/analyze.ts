import fs from 'node:fs';
import { Option, type Command } from 'commander';
import type { TaskJob } from '../../core/schemas/jobs.js';
import { parseVideoLink } from '../../core/video-link.js';
import type { CliApp } from '../app.js';
import { usageError } from '../../core/client-errors.js';
import { withExamples } from '../help.js';
import { printJson, printRecord } from '../output.js';
import { checkTextTarget, saveText } from '../save-text.js';
import { failIfFailed, taskJobFields, watchTaskJob } from '../speech/watch-task-job.js';
import { parseTimeoutSeconds } from '../watch.js';

/** The service's limit, checked here so a long prompt file fails before any call. */
const PROMPT_MAX_CHARACTERS = 4000;

interface AnalyzeOptions {
  prompt?: string;
  promptFile?: string;
  mediaResolution?: 'low' | 'default';
  watch?: boolean;
  output?: string;
  force?: boolean;
  timeout?: string;
}

export function registerAnalyze(program: Command, app: CliApp): void {
  withExamples(
    program
      .command('analyze')
      .description('AI analysis of a video (free during preview): queues a job; --watch prints the answer')
      .argument('<video_url>', 'watch link, youtu.be short link or Shorts URL')
      .option('--prompt <text>', 'what to ask about the video (up to 4,000 characters)')
      .option('--prompt-file <path>', 'read the prompt from a file (- for stdin)')
      .addOption(new Option('--media-resolution <level>', 'visual detail the model sees: low (default) or default (more detail)').choices(['low', 'default']))
      .option('--watch', 'wait for the analysis and print its text')
      .option('-o, --output <file>', 'save the analysis text to this file; implies --watch')
      .option('--force', 'with -o: overwrite a file that already exists')
      .option('--timeout <seconds>', 'with --watch: stop waiting after this long (exit 10)'),
    [
      'url=$(tubekit engine sample videos --limit 1 --json | jq -r ".videos[0].url")',
      'tubekit analyze "$url" --prompt "Summarize this video in two sentences" --watch',
      'tubekit analyze "$url" --prompt "Return JSON with keys title, summary and topics" --watch | jq .topics',
      'echo "List the topics and the hook" | tubekit analyze "$url" --prompt-file - --media-resolution default -o analysis.txt',
      'tubekit analyze "$url" --prompt "Summarize it again" -o analysis.txt --force      # replaces analysis.txt',
      'tubekit analyze "$url" --prompt "Give me 5 key moments with timestamps"      # prints the job; follow with tubekit job',
    ],
  ).action(async (videoUrl: string, options: AnalyzeOptions) => {
    const link = parseVideoLink(videoUrl);
    if (!link.ok) throw usageError(`${videoUrl}: ${link.message}.`, 'Find sample videos with: tubekit engine sample videos');
    const watching = Boolean(options.watch) || options.output !== undefined;
    const timeoutSeconds = parseTimeoutSeconds(options.timeout, watching);
    if (options.output !== undefined) checkTextTarget(options.output, Boolean(options.force));
    const prompt = await readPrompt(app, options);

    const submitted = await app.call('analysis.submit', {
      video_url: videoUrl,
      prompt,
      ...(options.mediaResolution ? { media_resolution: options.mediaResolution } : {}),
    });
    if (!watching) {
      await app.render(submitted, (body) => printRecord(app.io, Object.entries(body).filter(([key]) => key !== 'success')));
      if (!app.json) app.io.note(`Queued. Follow it with: tubekit job ${submitted.job_id} --watch`);
      return;
    }
    const job = await watchTaskJob(app, submitted.job_id, { timeoutSeconds, output: options.output, type: 'analysis' });
    if (job.status === 'completed' && options.output !== undefined) {
      await saveText(options.output, job.analysis_text ?? '', Boolean(options.force));
      app.io.note(`Saved ${options.output}`);
    }
    showAnalysisJob(app, job, { saved: options.output !== undefined });
  });
}

/**
 * An analysis job for people: once completed, its text (unless it was saved to a file); before
 * that, or failed, its fields. --json prints the body. A failed job then exits 1 with its error.
 */
export function showAnalysisJob(app: CliApp, job: TaskJob, options: { saved?: boolean } = {}): void {
  if (app.json) printJson(app.io, job);
  else if (job.status !== 'completed') printRecord(app.io, taskJobFields(job));
  else if (!options.saved) app.io.out(job.analysis_text ?? '');
  failIfFailed(job);
}

async function readPrompt(app: CliApp, options: AnalyzeOptions): Promise<string> {
  if (options.prompt !== undefined && options.promptFile !== undefined) throw usageError('Give the prompt with --prompt or --prompt-file, not both.');
  let prompt: string;
  if (options.promptFile === '-') {
    if (app.io.stdinIsTerminal) throw usageError('Reading the prompt from stdin, but stdin is a terminal.', 'Pipe it in: echo "Summarize it" | tubekit analyze <url> --prompt-file -');
    prompt = await app.io.readStdin();
  } else if (options.promptFile !== undefined) {
    try {
      prompt = fs.readFileSync(options.promptFile, 'utf8');
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
      throw usageError(`Cannot read the prompt file ${options.promptFile}: ${reason}.`);
    }
  } else if (options.prompt !== undefined) {
    prompt = options.prompt;
  } else {
    throw usageError('Say what to ask about the video: --prompt "Summarize it", or --prompt-file <path|->.');
  }
  const length = prompt.trim().length;
  if (length === 0) throw usageError('The prompt is empty.');
  if (length > PROMPT_MAX_CHARACTERS) throw usageError(`The prompt is ${length.toLocaleString('en-US')} characters long; at most ${PROMPT_MAX_CHARACTERS.toLocaleString('en-US')} are allowed.`);
  return prompt;
}
