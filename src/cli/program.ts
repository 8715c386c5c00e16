import { Command, Option } from 'commander';
import { VERSION } from '../core/version.js';
import { CliApp } from './app.js';
import { helpConfiguration, withExamples, programFooter } from './help.js';
import type { IO } from './io.js';
import { rootDispatch } from './root-dispatch.js';
import { clipEchoes } from '../core/echo-text.js';

type Register = (program: Command, app: CliApp) => unknown;

/**
 * Each top-level command's module, in the order help lists them. They are imported only here and
 * only on demand: a run loads the module of the command it invokes, not all of them.
 */
const commandModules = {
  voices: () => import('./commands/voices.js').then((module) => module.registerVoices),
  clone: () => import('./commands/clone.js').then((module) => module.registerClone),
  generate: () => import('./commands/generate.js').then((module) => module.registerGenerate),
  folders: () => import('./commands/folders.js').then((module) => module.registerFolders),
  saved: () => import('./commands/saved.js').then((module) => module.registerSaved),
  resolve: () => import('./commands/resolve.js').then((module) => module.registerResolve),
  'process-channel': () => import('./commands/process-channel.js').then((module) => module.registerProcessChannel),
  alerts: () => import('./commands/alerts.js').then((module) => module.registerAlerts),
  webhooks: () => import('./commands/webhooks.js').then((module) => module.registerWebhooks),
  collabs: () => import('./commands/collabs.js').then((module) => module.registerCollabs),
  channel: () => import('./commands/channel.js').then((module) => module.registerChannel),
  job: () => import('./commands/job.js').then((module) => module.registerJob),
  jobs: () => import('./commands/jobs.js').then((module) => module.registerJobs),
  cms: () => import('./commands/cms.js').then((module) => module.registerCms),
  monetized: () => import('./commands/monetized.js').then((module) => module.registerMonetized),
  terminated: () => import('./commands/terminated.js').then((module) => module.registerTerminated),
  analyze: () => import('./commands/analyze.js').then((module) => module.registerAnalyze),
  download: () => import('./commands/download.js').then((module) => module.registerDownload),
  video: () => import('./commands/video.js').then((module) => module.registerVideo),
  health: () => import('./commands/health.js').then((module) => module.registerHealth),
  doctor: () => import('./commands/doctor.js').then((module) => module.registerDoctor),
  auth: () => import('./commands/auth.js').then((module) => module.registerAuth),
  config: () => import('./commands/config.js').then((module) => module.registerConfig),
  serve: () => import('./commands/serve.js').then((module) => module.registerServe),
  mcp: () => import('./commands/mcp.js').then((module) => module.registerMcp),
  engine: () => import('./commands/engine/index.js').then((module) => module.registerEngine),
  completion: () => import('./commands/completion.js').then((module) => module.registerCompletion),
  api: () => import('./commands/api.js').then((module) => module.registerApi),
  __complete: () => import('./commands/complete.js').then((module) => module.registerComplete),
} satisfies Record<string, () => Promise<Register>>;

type CommandName = keyof typeof commandModules;

const everyCommand = Object.keys(commandModules) as CommandName[];
const isCommandName = (name: string): name is CommandName => Object.hasOwn(commandModules, name);

/** `completion` prints the whole command tree, so it runs with every command registered. */
const wholeTreeCommands = new Set<CommandName>(['completion']);

/** The program for one run (argv as in process.argv), with only the commands that run can reach. */
export async function buildProgram(io: IO, argv: string[]): Promise<{ program: Command; app: CliApp }> {
  const { program, app } = rootProgram(io);
  await registerCommands(program, app, commandsFor(program, argv.slice(2)));
  return { program, app };
}

/** The program with every command: for what describes the whole tree rather than running it. */
export async function buildWholeProgram(io: IO): Promise<{ program: Command; app: CliApp }> {
  const { program, app } = rootProgram(io);
  await registerCommands(program, app, everyCommand);
  return { program, app };
}

async function registerCommands(program: Command, app: CliApp, names: CommandName[]): Promise<void> {
  const registers = await Promise.all(names.map((name) => commandModules[name]()));
  for (const register of registers) register(program, app);
  refuseHelpOfUnknownSubcommands(program);
}

/**
 * `tubekit alerts nosuch --help`: commander prints the group's help and exits 0, as if the
 * subcommand existed. A group whose help is asked for with an unknown word in front of the flag
 * answers as it does without the flag: "unknown command", with a did-you-mean, exit 2.
 */
function refuseHelpOfUnknownSubcommands(command: Command): void {
  for (const child of command.commands) refuseHelpOfUnknownSubcommands(child);
  // A command that takes arguments of its own (`terminated <keywords...>`) reads other words as them.
  if (command.commands.length === 0 || command.registeredArguments.length > 0) return;
  command.on('beforeAllHelp', (context: { command: Command }) => {
    const word = command.args[0];
    if (context.command !== command || word === undefined || word.startsWith('-')) return;
    const known = command.commands.some((child) => child.name() === word || child.aliases().includes(word));
    if (known || word === 'help') return;
    // Commander's own error for it (with its did-you-mean); untyped, so checked before use.
    const commander = command as unknown as { unknownCommand?: () => never };
    if (typeof commander.unknownCommand === 'function') commander.unknownCommand();
    command.error(`error: unknown command '${word}'`, { code: 'commander.unknownCommand' });
  });
}

/**
 * The commands a run needs. Only one when the root parse will dispatch to a known command; none
 * when it will print the version first; otherwise every command, so that help, `help <command>`,
 * and the "unknown command (Did you mean …?)" error see the whole tree as before.
 */
function commandsFor(program: Command, args: string[]): CommandName[] {
  const dispatch = rootDispatch(program, args);
  if (dispatch === 'version') return [];
  const name = dispatch.operand;
  return name !== undefined && isCommandName(name) && !wholeTreeCommands.has(name) ? [name] : everyCommand;
}

/** The program itself: its options, help and output settings, and no commands yet. */
function rootProgram(io: IO): { program: Command; app: CliApp } {
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
    .option('--store <url>', "where the embedded engine keeps its state: postgres://user@host/db (a fleet's shared database) or sqlite:<file> (default: the data dir's)")
    .option('--files-dir <dir>', "where the embedded engine keeps its files (downloads, audio, the CDN): a directory every machine of a fleet mounts (default: the data dir)")
    .option('--no-input', 'never prompt; a missing value is an error')
    .option('-q, --quiet', 'no progress or notices on stderr')
    .option('-v, --verbose', 'trace requests on stderr (keys redacted)')
    .option('--no-color', 'no colour')
    .option('--request-timeout <seconds>', 'remote mode: the most one call may take, retries included (default: fitted to each call)')
    .option('--proxy <url>', 'live platform: send its requests through this HTTP(S) proxy (else TUBEKIT_PROXY, HTTPS_PROXY)')
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
  return { program, app };
}
