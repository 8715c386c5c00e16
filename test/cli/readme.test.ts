/**
 * Every README example runs as written: each ```sh block, in order, in one sandbox (one data dir,
 * one config dir, one working directory), through bash with the built `tubekit` on the PATH.
 *
 * Conventions for README authors:
 *  - A command is expected to exit 0; one that should fail says so at its end: `# exits 5`.
 *  - A block that cannot run offline (installing, the test suite itself, a remote host) is
 *    preceded by `<!-- readme-check: skip — <the reason> -->`; the reason is reported.
 *  - `tubekit serve …` runs in the background for the rest of the README, on a free port that
 *    replaces 8787 wherever the README writes it.
 *  - The files the README treats as the reader's own are stand-ins made here: me.wav (a 5 s voice
 *    sample), interview.mp3 (31 s), script.txt.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { mp3Sample, wavSample } from '../support/audio-fixtures.js';
import { BIN, cliSandbox, stopDetachedWorkers } from '../support/cli.js';

interface ReadmeCommand {
  text: string;
  line: number;
  expectedExit: number;
}

interface ReadmeBlock {
  line: number;
  body: string;
  skip?: string;
}

const SKIP_MARKER = /<!--\s*readme-check:\s*skip\s*(?:—|-|:)\s*(.+?)\s*-->/;

function readmeBlocks(readme: string): ReadmeBlock[] {
  const lines = readme.split('\n');
  const blocks: ReadmeBlock[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    if (lines[index]!.trim() !== '```sh') continue;
    let previous = index - 1;
    while (previous >= 0 && lines[previous]!.trim() === '') previous -= 1;
    const skip = previous >= 0 ? SKIP_MARKER.exec(lines[previous]!)?.[1] : undefined;
    const end = lines.indexOf('```', index + 1);
    blocks.push({ line: index + 2, body: lines.slice(index + 1, end).join('\n'), skip });
    index = end;
  }
  return blocks;
}

/** Whether bash reads `text` as complete commands (an `if` without its `fi` is not). */
function complete(text: string): boolean {
  try {
    execFileSync('bash', ['-n'], { input: text, stdio: ['pipe', 'ignore', 'ignore'] });
    return true;
  } catch {
    return false;
  }
}

/** A block's commands: one per line, or several lines where a command continues (`\`, if…fi). */
function commandsOf(block: ReadmeBlock): ReadmeCommand[] {
  const commands: ReadmeCommand[] = [];
  let pending: string[] = [];
  let start = 0;
  block.body.split('\n').forEach((line, offset) => {
    if (pending.length === 0) {
      if (line.trim() === '' || line.trim().startsWith('#')) return;
      start = block.line + offset;
    }
    pending.push(line);
    const text = pending.join('\n');
    if (line.trimEnd().endsWith('\\') || !complete(text)) return;
    const exits = /#\s*exits\s+(\d+)/.exec(pending[0]!) ?? /#\s*exits\s+(\d+)/.exec(line);
    commands.push({ text, line: start, expectedExit: exits ? Number(exits[1]) : 0 });
    pending = [];
  });
  if (pending.length > 0) throw new Error(`README line ${start}: a command never ends:\n${pending.join('\n')}`);
  return commands;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

const SERVE = /^tubekit\s+serve\b/;

/** One bash script running every command in order, recording each one's output and exit code. */
function script(commands: ReadmeCommand[], results: string, port: number): string {
  const lines = [
    'set +e',
    `__serve_pid=''`,
    `trap '[ -n "$__serve_pid" ] && kill "$__serve_pid" 2>/dev/null; wait 2>/dev/null' EXIT`,
  ];
  commands.forEach((command, index) => {
    const text = command.text.replaceAll('8787', String(port));
    if (SERVE.test(text.trim())) {
      // Runs for the rest of the README; ready once it has printed its URL.
      const line = text.replace(/\s+#.*$/, '').replace(/\s*&\s*$/, '');
      lines.push(`${line} > ${results}/serve.out 2> ${results}/serve.err < /dev/null & __serve_pid=$!`);
      lines.push(`for __i in $(seq 100); do grep -q http ${results}/serve.out 2>/dev/null && break; sleep 0.1; done`);
      lines.push(`grep -q http ${results}/serve.out; echo $? > ${results}/${index}.rc; [ "$(cat ${results}/${index}.rc)" = 0 ] || exit 1`);
      return;
    }
    lines.push(`__t=$(date +%s%N); { ${text}\n} > ${results}/${index}.out 2> ${results}/${index}.err < /dev/null`);
    lines.push(`__rc=$?; echo $(( ($(date +%s%N) - __t) / 1000000 )) > ${results}/${index}.ms; echo $__rc > ${results}/${index}.rc; [ $__rc = ${command.expectedExit} ] || exit 1`);
  });
  return `${lines.join('\n')}\n`;
}

describe('README examples run as written on the sample world', () => {
  const cli = cliSandbox();
  afterAll(() => {
    stopDetachedWorkers(cli.dataDir);
    cli.cleanup();
  });

  it('shows only commands that run this checkout (npx would fetch another package named tubekit)', () => {
    const blocks = readmeBlocks(fs.readFileSync('README.md', 'utf8'));
    const npx = blocks.flatMap((block) => block.body.split('\n').filter((line) => /\bnpx\s+tubekit\b/.test(line)));
    expect(npx).toEqual([]);
  });

  it('runs every ```sh block in order, in one sandbox', async () => {
    const blocks = readmeBlocks(fs.readFileSync('README.md', 'utf8'));
    const skipped = blocks.filter((block) => block.skip);
    for (const block of skipped) console.info(`README line ${block.line}: not run — ${block.skip}`);
    const commands = blocks.filter((block) => !block.skip).flatMap(commandsOf);
    expect(commands.length).toBeGreaterThan(30);

    // The reader's files, and `tubekit` on the PATH as `npm link` puts it there.
    const work = path.join(cli.dataDir, '..', 'work');
    const shims = path.join(cli.dataDir, '..', 'bin');
    const results = path.join(cli.dataDir, '..', 'results');
    for (const dir of [work, shims, results, path.join(cli.dataDir, '..', 'home')]) fs.mkdirSync(dir, { recursive: true });
    fs.symlinkSync(BIN, path.join(shims, 'tubekit'));
    fs.writeFileSync(path.join(work, 'me.wav'), wavSample(5, { f0: 180 }));
    fs.writeFileSync(path.join(work, 'interview.mp3'), await mp3Sample(31, { f0: 200 }));
    fs.writeFileSync(path.join(work, 'script.txt'), 'A short narration, read from a file.\n');

    const port = await freePort();
    const run = await execa('bash', ['-c', script(commands, results, port)], {
      cwd: work,
      env: { ...cli.env, PATH: `${shims}:${process.env.PATH}`, HOME: path.join(cli.dataDir, '..', 'home') },
      reject: false,
      timeout: 180_000,
    });

    const ran = commands.filter((_, index) => fs.existsSync(path.join(results, `${index}.rc`)));
    const failedAt = ran.findIndex((command, index) => Number(fs.readFileSync(path.join(results, `${index}.rc`), 'utf8')) !== command.expectedExit);
    if (failedAt >= 0 || ran.length < commands.length) {
      const index = failedAt >= 0 ? failedAt : ran.length;
      const command = commands[index]!;
      const read = (suffix: string) => (fs.existsSync(path.join(results, `${index}.${suffix}`)) ? fs.readFileSync(path.join(results, `${index}.${suffix}`), 'utf8').slice(-2000) : '');
      expect.fail(
        `README line ${command.line} did not run as written (expected exit ${command.expectedExit}, got ${read('rc').trim() || 'nothing'}):\n` +
          `${command.text}\n--- stdout\n${read('out')}\n--- stderr\n${read('err')}\n--- bash\n${run.stderr.slice(-1000)}`,
      );
    }
    expect(ran).toHaveLength(commands.length);
    // The slowest lines, to keep this test's time in view as the README grows.
    const times = commands.map((command, index) => ({ command, ms: fs.existsSync(path.join(results, `${index}.ms`)) ? Number(fs.readFileSync(path.join(results, `${index}.ms`), 'utf8')) : 0 }));
    for (const { command, ms } of times.sort((a, b) => b.ms - a.ms).slice(0, 5)) console.info(`${ms} ms  README line ${command.line}: ${command.text.split('\n')[0]}`);
  }, 200_000);
});
