import type { Command } from 'commander';
import type { RouteInput, RouteName, RouteOutput } from '../core/routes.js';
import type { CallOptions, Service } from '../core/service.js';
import type { AnalysisSettingsSource } from '../engine/features/analysis/providers/provider-config.js';
import { analysisSettingsSource, speechSettingsSource } from './analysis-settings.js';
import type { SpeechSettingsSource } from '../engine/speech/providers/speech-settings.js';
import type { PlatformOptions } from '../engine/platform/factory/open-platform.js';
import { ConfigStore } from './config.js';
import { resolveSettings, type GlobalFlags, type Settings } from './globals.js';
import type { IO } from './io.js';
import { cleanForTerminal, stripControls } from './terminal-text.js';
import { printJson } from './output.js';
import { createService, type ServiceTuning } from './service-factory.js';

/**
 * What a command's action needs: the IO, the resolved settings, and a lazily created Service.
 * One per run; commands receive it when they register.
 */
export class CliApp {
  private settingsCache?: Settings;
  private serviceCache?: Promise<Service>;
  readonly config: ConfigStore;

  constructor(
    readonly io: IO,
    private readonly program: Command,
  ) {
    this.config = new ConfigStore(io.streams.env);
  }

  get flags(): GlobalFlags {
    return this.program.opts<GlobalFlags>();
  }

  get settings(): Settings {
    this.settingsCache ??= resolveSettings(this.flags, this.io.streams.env, this.config);
    return this.settingsCache;
  }

  get json(): boolean {
    return this.settings.json;
  }

  /** What the embedded engine is told about the live platform: the user's proxy and cookies file; notices to --verbose. */
  get platformOptions(): PlatformOptions {
    return { ...this.settings.platform, trace: (line) => this.io.trace(line) };
  }

  /** Set before the first call by commands that must not wait on retries (shell completion, auth login). */
  serviceTuning: ServiceTuning = {};

  service(): Promise<Service> {
    this.serviceCache ??= createService(this.settings, this.io, { analysisSettings: this.analysisSettings(), speechSettings: this.speechSettings(), ...this.serviceTuning });
    return this.serviceCache;
  }

  /** Where an engine opened by this run finds its vision model: this process's environment, then the profile. */
  analysisSettings(): AnalysisSettingsSource {
    return analysisSettingsSource(this.io.streams.env, this.config, this.settings.profileName);
  }

  /** Where an engine opened by this run finds the ElevenLabs and MiniMax keys: the environment, then the profile. */
  speechSettings(): SpeechSettingsSource {
    return speechSettingsSource(this.io.streams.env, this.config, this.settings.profileName);
  }

  /** The Service of a long-lived server (`mcp`): local jobs run in this process and stop with it. */
  serviceForServer(): Promise<Service> {
    this.serviceTuning = { ...this.serviceTuning, inProcessJobs: true };
    return this.service();
  }

  /** Calls the service: the shortcut most commands need. */
  async call<N extends RouteName>(name: N, input: RouteInput<N>, options?: CallOptions): Promise<RouteOutput<N>> {
    const service = await this.service();
    return service.call(name, input, options);
  }

  /** Prints the body as JSON with --json, or with `human` otherwise. */
  async render<T>(body: T, human: (body: T) => void | Promise<void>): Promise<void> {
    if (this.json) printJson(this.io, body);
    else await human(cleanForTerminal(body));
  }

  /**
   * The outcome of a change: the body with --json; on a terminal the sentence alone (on stderr);
   * piped, the data a script reads (and the sentence on stderr).
   */
  renderOutcome<T>(body: T, data: string, sentence: string): void {
    if (this.json) {
      printJson(this.io, body);
      return;
    }
    if (!this.io.stdoutIsTerminal) this.io.out(stripControls(data));
    this.io.note(stripControls(sentence));
  }

  /** Bodies held for `--jq` (see IO.jsonSink), in the order the command printed them. */
  private readonly heldJson: unknown[] = [];

  /** With --jq, JSON bodies are held until the command is done, then filtered (flushJson). */
  holdJsonForJq(): void {
    if (this.flags.jq !== undefined) this.io.jsonSink = (body) => this.heldJson.push(body);
  }

  /** Writes the held bodies through the --jq filter; a no-op without --jq. */
  async flushJson(): Promise<void> {
    const expression = this.flags.jq;
    if (expression === undefined) return;
    const { filterWithJq } = await import('./jq.js');
    for (const body of this.heldJson.splice(0)) {
      const output = await filterWithJq(body, expression, this.io.stdoutIsTerminal);
      if (output !== '') this.io.streams.stdout.write(output.endsWith('\n') ? output : `${output}\n`);
    }
  }

  async close(): Promise<void> {
    if (this.serviceCache) await (await this.serviceCache).close();
  }
}
