import type { Readable, Writable } from 'node:stream';
import { redactSecrets } from '../core/redact.js';

export interface Spinner {
  update(text: string): void;
  stop(): void;
}

const STYLES = { bold: [1, 22], dim: [2, 22], green: [32, 39], red: [31, 39], yellow: [33, 39] } as const;

const silentSpinner: Spinner = { update() {}, stop() {} };

export interface IOStreams {
  stdout: Writable & { isTTY?: boolean };
  stderr: Writable & { isTTY?: boolean };
  stdin: Readable & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
}

/**
 * The one place that knows about the terminal: which streams are TTYs, whether colour and
 * prompts are allowed, and the spinner (stderr only, and only on a terminal).
 */
export class IO {
  quiet = false;
  verbose = false;
  noInput = false;
  colorFlag = true;
  /** Set by `--jq`: JSON bodies go here to be filtered at the end instead of straight to stdout. */
  jsonSink?: (body: unknown) => void;

  constructor(readonly streams: IOStreams) {}

  static fromProcess(): IO {
    // A reader that stops early (`tubekit voices list | head`) is not an error of ours.
    process.stdout.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(0);
      throw error;
    });
    return new IO({ stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env });
  }

  get stdoutIsTerminal(): boolean {
    return Boolean(this.streams.stdout.isTTY);
  }
  get stderrIsTerminal(): boolean {
    return Boolean(this.streams.stderr.isTTY);
  }
  get stdinIsTerminal(): boolean {
    return Boolean(this.streams.stdin.isTTY);
  }

  /** NO_COLOR and --no-color turn colour off; FORCE_COLOR turns it on; otherwise only on a terminal. */
  private colorOn(terminal: boolean): boolean {
    const env = this.streams.env;
    if (!this.colorFlag || (env.NO_COLOR !== undefined && env.NO_COLOR !== '')) return false;
    if (env.FORCE_COLOR && env.FORCE_COLOR !== '0') return true;
    return terminal && env.TERM !== 'dumb';
  }

  /** Colour in messages (stderr). */
  get color(): boolean {
    return this.colorOn(this.stderrIsTerminal);
  }

  /** Colour in data shown to a person (stdout tables and records). */
  get stdoutColor(): boolean {
    return this.colorOn(this.stdoutIsTerminal);
  }

  /** The terminal's width when stdout is one that reports it. */
  get stdoutColumns(): number | undefined {
    const columns = (this.streams.stdout as { columns?: number }).columns;
    return this.stdoutIsTerminal && columns && columns > 0 ? columns : undefined;
  }

  /** Prompts only when a person can answer: both ends are terminals and --no-input is off. */
  get canPrompt(): boolean {
    return !this.noInput && this.stdinIsTerminal && this.stdoutIsTerminal;
  }

  /** Data: the only thing written to stdout. */
  out(text: string): void {
    this.streams.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  }

  /** Notices for people, on stderr, silenced by --quiet. */
  note(text: string): void {
    if (!this.quiet) this.streams.stderr.write(`${redactSecrets(text)}\n`);
  }

  /** Always shown on stderr (errors, warnings). */
  error(text: string): void {
    this.streams.stderr.write(`${redactSecrets(text)}\n`);
  }

  /** --verbose traces. */
  trace(text: string): void {
    if (this.verbose) this.streams.stderr.write(`${this.dim('[trace]')} ${redactSecrets(text)}\n`);
  }

  dim(text: string): string {
    return this.color ? `\u001b[2m${text}\u001b[22m` : text;
  }
  bold(text: string): string {
    return this.color ? `\u001b[1m${text}\u001b[22m` : text;
  }
  red(text: string): string {
    return this.color ? `\u001b[31m${text}\u001b[39m` : text;
  }
  yellow(text: string): string {
    return this.color ? `\u001b[33m${text}\u001b[39m` : text;
  }

  /** Styles data on stdout (tables, records) when colour is on there. */
  paint(text: string, style: keyof typeof STYLES): string {
    const [open, close] = STYLES[style];
    return this.stdoutColor && text ? `\u001b[${open}m${text}\u001b[${close}m` : text;
  }

  /** An ora spinner on stderr when it is a terminal; nothing otherwise. */
  async spinner(text: string): Promise<Spinner> {
    // A terminal that reports no width (a bare pseudo-terminal) would make ora redraw forever.
    const columns = (this.streams.stderr as { columns?: number }).columns ?? 0;
    if (this.quiet || !this.stderrIsTerminal || columns <= 0) return silentSpinner;
    const { default: ora } = await import('ora');
    // discardStdin would put the terminal in raw mode without reading it, so Ctrl-C never arrives.
    const spinner = ora({ text, stream: this.streams.stderr as NodeJS.WritableStream, color: 'cyan', isEnabled: true, discardStdin: false }).start();
    return {
      update: (next) => {
        spinner.text = next;
      },
      stop: () => spinner.stop(),
    };
  }

  /** All of stdin as text (for `-` arguments and piped keys). */
  async readStdin(): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of this.streams.stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
    return Buffer.concat(chunks).toString('utf8');
  }
}
