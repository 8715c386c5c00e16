import { Command, Option } from 'commander';
import { VERSION } from '../core/version.js';
import { CliApp } from './app.js';
import { registerAlerts } from './commands/alerts.js';
import { registerAnalyze } from './commands/analyze.js';
import { registerApi } from './commands/api.js';
import { registerAuth } from './commands/auth.js';
import { registerClone } from './commands/clone.js';
import { registerCollabs } from './commands/collabs.js';
import { registerCms } from './commands/cms.js';
import { registerComplete } from './commands/complete.js';
import { registerCompletion } from './commands/completion.js';
import { registerConfig } from './commands/config.js';
import { registerDownload } from './commands/download.js';
import { registerEngine } from './commands/engine/index.js';
import { registerFolders } from './commands/folders.js';
import { registerGenerate } from './commands/generate.js';
import { registerHealth } from './commands/health.js';
import { registerJob } from './commands/job.js';
import { registerMonetized } from './commands/monetized.js';
import { registerProcessChannel } from './commands/process-channel.js';
import { registerResolve } from './commands/resolve.js';
import { registerSaved } from './commands/saved.js';
import { registerServe } from './commands/serve.js';
import { registerTerminated } from './commands/terminated.js';
import { registerVoices } from './commands/voices.js';
import { helpConfiguration, withExamples, programFooter } from './help.js';
import type { IO } from './io.js';
import { clipEchoes } from './text.js';

/** Every command module; each adds its commands to the program. */
const commandModules: Array<(program: Command, app: CliApp) => unknown> = [
  registerVoices,
  registerClone,
  registerGenerate,
  registerFolders,
  registerSaved,
  registerResolve,
  registerProcessChannel,
  registerAlerts,
  registerCollabs,
  registerJob,
  registerCms,
  registerMonetized,
  registerTerminated,
  registerAnalyze,
  registerDownload,
  registerHealth,
  registerAuth,
  registerConfig,
  registerServe,
  registerEngine,
  registerCompletion,
  registerApi,
  registerComplete,
];

export function buildProgram(io: IO): { program: Command; app: CliApp } {
  const program = new Command('tubekit');
  const app = new CliApp(io, program);
  program
    .description('Voice, channel research and video tools — on an embedded local engine or a remote service')
    .version(VERSION, '-V, --version')
    .option('--json', 'print exactly the API body as JSON')
    .option('--jq <expression>', 'filter the JSON output with a jq expression (implies --json)')
    .option('--local', 'use the embedded engine even when a base URL is set')
    .option('--remote', 'use the remote service (needs a base URL)')
    .option('--base-url <url>', 'base URL of the remote service')
    .option('--profile <name>', 'configuration profile')
    .option('--data-dir <dir>', 'data dir of the embedded engine')
    .option('--no-input', 'never prompt; a missing value is an error')
    .option('-q, --quiet', 'no progress or notices on stderr')
    .option('-v, --verbose', 'trace requests on stderr (keys redacted)')
    .option('--no-color', 'no colour')
    .option('--request-timeout <seconds>', 'remote mode: the most one call may take, retries included (default: fitted to each call)')
    .addOption(new Option('--api-key <key>').hideHelp())
    .showHelpAfterError('(run with --help for usage)')
    // Every subcommand's help lists its own options, then the global ones by name only.
    .configureHelp(helpConfiguration())
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.streams.stdout.write(text),
      writeErr: (text) => io.streams.stderr.write(text),
      // Commander quotes bad values back; a huge one is cut like every other echoed input.
      outputError: (text, write) => write(`${clipEchoes(text.trimEnd())}\n`),
    })
    .addHelpText('after', programFooter)
    .hook('preAction', () => {
      const flags = program.opts();
      io.quiet = Boolean(flags.quiet);
      io.verbose = Boolean(flags.verbose);
      io.noInput = flags.input === false;
      io.colorFlag = flags.color !== false;
      app.holdJsonForJq();
    });
  withExamples(program, [
    'tubekit engine sample channels --limit 5',
    'tubekit folders create Cooking && tubekit saved add @honestrunning --folder 1',
    'tubekit --json folders list | jq .folders',
    'tubekit generate "Hello from tubekit." --voice espeak-en-us -o hello.mp3',
    'TUBEKIT_API_KEY=$(tubekit engine keys create) tubekit --base-url http://127.0.0.1:8787 folders list   # via tubekit serve',
  ]);
  for (const register of commandModules) register(program, app);
  return { program, app };
}
