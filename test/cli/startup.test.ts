/**
 * Start-up loads the module of the command that runs and no other (src/cli/program.ts), while
 * everything that shows the whole tree (help, "did you mean", completion) still sees every command.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { IO } from '../../src/cli/io.js';
import { buildWholeProgram } from '../../src/cli/program.js';
import { VERSION } from '../../src/core/version.js';
import { bundleMeta, bundledModules, externalImports, staticallyReached } from '../support/bundle.js';
import { execa } from 'execa';
import { BIN, cliSandbox, startServe } from '../support/cli.js';

const COMMAND_MODULE = /^dist\/src\/cli\/commands\//;

async function visibleCommandNames(): Promise<string[]> {
  const io = new IO({ stdout: new PassThrough(), stderr: new PassThrough(), stdin: new PassThrough(), env: {} });
  const { program } = await buildWholeProgram(io);
  return program.commands.filter((command) => !(command as unknown as { _hidden?: boolean })._hidden).map((command) => command.name());
}

describe('start-up', () => {
  const cli = cliSandbox({ spawn: true }); // the process's own start-up is the point
  afterAll(() => cli.cleanup());

  it('runs no command module and no zod before the command is known', () => {
    const reached = [...staticallyReached('dist/src/cli/main.js')];
    expect(reached).toContain('dist/src/cli/program.js');
    expect(reached.filter((module) => COMMAND_MODULE.test(module))).toEqual([]);
    expect(reached.filter((module) => module.includes('node_modules/zod/'))).toEqual([]);
    // Cell widths need Unicode data that takes ~50 ms to load: only a table on a terminal loads it.
    expect(reached.filter((module) => module.includes('node_modules/string-width/'))).toEqual([]);
    expect(reached.filter((module) => module.includes('node_modules/undici/'))).toEqual([]);
    // Both are in the bundle all the same, for import() to run.
    expect(bundledModules()).toContain('dist/src/cli/commands/folders.js');
    expect(bundledModules().some((module) => module.includes('node_modules/zod/'))).toBe(true);
  });

  it('loads the MCP SDK for `tubekit mcp` only', () => {
    const { inputs } = bundleMeta();
    const mcpModule = (module: string) => module.startsWith('dist/src/mcp/');
    // Only the mcp command and the mcp modules themselves import an mcp module…
    const importers = Object.entries(inputs)
      .filter(([, { imports }]) => imports.some((entry) => mcpModule(entry.path)))
      .map(([module]) => module);
    expect(importers.filter((module) => !mcpModule(module))).toEqual(['dist/src/cli/commands/mcp.js']);
    expect(externalImports('dist/src/cli/commands/mcp.js')).toEqual([]);
    expect([...staticallyReached('dist/src/cli/main.js')].filter(mcpModule)).toEqual([]);
    // …and the SDK is imported (through the launcher's importer) by mcp modules and nothing else.
    const sdkImporters = bundledModules().filter((module) => module.startsWith('dist/src/') && fs.readFileSync(module, 'utf8').includes("import('@modelcontextprotocol/"));
    expect(sdkImporters.length).toBeGreaterThan(0);
    expect(sdkImporters.filter((module) => !mcpModule(module))).toEqual([]);
  });

  it('leaves no optimising compile of the HTTP parser for a remote command\'s exit to wait for', async () => {
    // undici's parser is WebAssembly; optimising it took 0.3 s of background work Node waits for at exit.
    const serve = await startServe(cli);
    // A V8 flag makes the code cache look foreign: this run would write it again for its flags.
    const cache = fs.readFileSync('dist/cli/tubekit.cjs.cache');
    try {
      const key = (await cli.run(['engine', 'keys', 'create', '--plan', 'ultimate'])).stdout.trim();
      const result = await execa('node', ['--trace-wasm-compilation-times', BIN, '--base-url', serve.url, 'folders', 'list', '--json'], {
        env: { ...cli.env, TUBEKIT_API_KEY: key },
        reject: false,
      });
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/using Liftoff/);
      expect(result.stdout).not.toMatch(/using TurboFan/);
    } finally {
      fs.writeFileSync('dist/cli/tubekit.cjs.cache', cache);
      await serve.stop();
    }
  });

  it('loads the live platform (and youtubei.js) only when a data dir opens it', () => {
    const reached = [...staticallyReached('dist/src/cli/main.js')];
    expect(reached.filter((module) => module.includes('/platform/live/'))).toEqual([]);
    expect(bundledModules()).toContain('dist/src/engine/platform/live/open.js');
    // youtubei.js stays outside the bundle, imported through the launcher when the live platform opens.
    const bundle = fs.readFileSync('dist/cli/tubekit.cjs', 'latin1');
    expect(bundle).toMatch(/importPackage\(["']youtubei\.js["']\)/);
    expect(bundle).not.toMatch(/require\(["']youtubei\.js["']\)/);
  });

  it('compiles from the code cache the build left beside the bundle', async () => {
    const cache = 'dist/cli/tubekit.cjs.cache';
    // Made from this very bundle (src/launcher/load-bundle.ts keys it by the bundle's SHA-1)…
    const bundleDigest = createHash('sha1').update(fs.readFileSync('dist/cli/tubekit.cjs')).digest('hex');
    expect(fs.readFileSync(cache).subarray(0, 20).toString('hex')).toBe(bundleDigest);
    // …and accepted by this Node: a rejected cache would be written again at exit.
    const written = fs.statSync(cache).mtimeMs;
    expect((await cli.run(['folders', 'list', '--json'])).exitCode).toBe(0);
    expect(fs.statSync(cache).mtimeMs).toBe(written);
  });

  it('lists every command in the root help, with --help and with help', async () => {
    const names = await visibleCommandNames();
    expect(names).toContain('folders');
    for (const args of [['--help'], ['help'], ['--json', '--help']]) {
      const result = await cli.run(args);
      expect(result.exitCode, args.join(' ')).toBe(0);
      const section = result.stdout.split('\nCommands:\n')[1]!.split('\n\n')[0]!;
      // Each command's line starts at the indent; wrapped descriptions are indented further.
      const listed = [...section.matchAll(/^ {2}([\w-]+)/gm)].map((match) => match[1]);
      expect(listed, args.join(' ')).toEqual([...names, 'help']);
    }
  });

  it('suggests the closest command for a misspelled one', async () => {
    const json = await cli.run(['--json', 'folderz', 'list']);
    expect(json).toMatchObject({ exitCode: 2, stdout: '' });
    expect(JSON.parse(json.stderr)).toEqual({ error: { status: null, code: 'usage', message: "unknown command 'folderz'\n(Did you mean folders?)" } });
    const text = await cli.run(['folderz']);
    expect(text).toMatchObject({ exitCode: 2, stderr: "error: unknown command 'folderz'\n(Did you mean folders?)\n(run with --help for usage)\n" });
  });

  it('finds the command after root options and their values', async () => {
    for (const args of [['--base-url', 'http://x', 'folders', '--help'], ['--base-url=http://x', '-qv', 'folders', '--help'], ['help', 'folders']]) {
      const result = await cli.run(args);
      expect(result.exitCode, args.join(' ')).toBe(0);
      expect(result.stdout, args.join(' ')).toMatch(/^Usage: tubekit folders /m);
    }
    // A value that happens to be a command name is still a value.
    const value = await cli.run(['--profile', 'folders', 'folderz']);
    expect(value.stderr).toMatch(/^error: unknown command 'folderz'\n\(Did you mean folders\?\)/);
  });

  it('prints the root help for --help before the command, as commander does', async () => {
    const result = await cli.run(['--help', 'folders']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^Usage: tubekit \[options\] \[command\]/m);
  });

  it('prints the version wherever the flag is', async () => {
    for (const args of [['--version'], ['-qV'], ['folders', 'list', '-V']]) {
      expect(await cli.run(args), args.join(' ')).toMatchObject({ exitCode: 0, stdout: `${VERSION}\n`, stderr: '' });
    }
  });
});
