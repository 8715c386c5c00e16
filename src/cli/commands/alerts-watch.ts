/**
 * `tubekit alerts watch`: follows the user's events (GET /api/events, long-polled) and prints one
 * line per event (NDJSON with --json), or runs a command per event with the event JSON on stdin.
 * The cursor is saved after each event is handled, so Ctrl-C or a crash resumes after the last
 * handled one (a command interrupted mid-run sees its event again: at least once).
 * `alerts triggered --since <cursor>` reads the same feed once, for cron.
 */
import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Command } from 'commander';
import { ExitCode } from '../../core/exit-codes.js';
import type { EventType, TubekitEvent } from '../../core/schemas/events.js';
import type { CliApp } from '../app.js';
import { parseId } from '../arguments.js';
import { configDir } from '../config.js';
import { examples } from '../help.js';
import { printJson, printTable } from '../output.js';
import { stripControls } from '../terminal-text.js';
import { WatchCursors } from '../watch-cursors.js';
import { parseEventTypes } from './webhooks.js';

/** How long one call holds waiting for an event. */
const LONG_POLL_SECONDS = 25;
/** Waits before each retry of a failing --exec command. */
export const EXEC_RETRY_MS = [1_000, 2_000, 4_000];

interface WatchFlags {
  alert?: string;
  events?: string;
  exec?: string;
  fromStart?: boolean;
}

/** One line about an event, for people. */
export function eventLine(event: TubekitEvent): string {
  const data = event.data as Record<string, unknown>;
  const channel = [data.handle, data.channel_id].filter(Boolean).join(' ');
  const what =
    event.type === 'alert.triggered'
      ? `${channel}: ${String(data.reason)}`
      : event.type === 'channel.new_upload'
        ? `${channel}: ${String(data.video_title)} (${String(data.kind)}, ${String(data.video_id)})`
        : `${channel}: ${String(data.state)}${data.reason ? ` (${String(data.reason)})` : ''}`;
  return stripControls([event.timestamp, event.type, what].join('\t'));
}

/** Runs `command` with the event on stdin; resolves to its exit code (or the signal that ended it). */
function runOnce(command: string, event: TubekitEvent, env: NodeJS.ProcessEnv): Promise<number | string> {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', command], {
      stdio: ['pipe', 'inherit', 'inherit'],
      env: { ...env, TUBEKIT_EVENT_ID: event.id, TUBEKIT_EVENT_TYPE: event.type },
    });
    child.on('error', (error) => resolve(error.message));
    child.on('close', (code, signal) => resolve(code ?? signal ?? 'ended'));
    child.stdin.on('error', () => undefined);
    child.stdin.end(`${JSON.stringify(event)}\n`);
  });
}

export function registerAlertsWatch(alerts: Command, app: CliApp): void {
  alerts
    .command('watch')
    .description('Follow new events as they happen: one line each (NDJSON with --json), or run a command per event; Ctrl-C stops, the next watch resumes')
    .addHelpText(
      'before',
      examples([
        'tubekit alerts watch',
        'tubekit alerts watch --alert 3 --json',
        'tubekit alerts watch --events channel.new_upload --exec \'notify-send "$TUBEKIT_EVENT_TYPE" "$(jq -r .data.video_title)"\'',
        'tubekit alerts watch --from-start --json > all-events.ndjson',
      ]),
    )
    .option('--alert <id>', 'only this alert\'s alert.triggered events (and every event of the other types)')
    .option('--events <list>', 'only these event types, comma-separated: alert.triggered, channel.new_upload, channel.terminated')
    .option('--exec <command>', 'run this shell command once per event: the event JSON on stdin, TUBEKIT_EVENT_ID and TUBEKIT_EVENT_TYPE in its environment; a failure is retried 3 times (1 s, 2 s, 4 s), then the watch stops (exit 1) before that event')
    .option('--from-start', 'replay every event from the first, not from where the last watch stopped')
    .action(async (flags: WatchFlags) => {
      const alertId = flags.alert === undefined ? undefined : parseId(flags.alert, '--alert');
      const types = flags.events === undefined ? undefined : parseEventTypes(flags.events);
      const { settings } = app;
      const cursors = new WatchCursors(settings.mode === 'local' ? settings.dataDir : configDir(app.io.streams.env));
      const key = WatchCursors.keyOf({ location: settings.mode === 'local' ? settings.dataDir : settings.baseUrl!, apiKey: settings.apiKey, alertId, events: types });
      let cursor = flags.fromStart ? '0' : (cursors.get(key) ?? '0');
      const stop = new AbortController();
      const onInterrupt = () => stop.abort();
      process.on('SIGINT', onInterrupt);
      process.on('SIGTERM', onInterrupt);
      app.io.note(`Watching for events after cursor ${cursor}. Ctrl-C stops.`);
      try {
        while (!stop.signal.aborted) {
          let body;
          try {
            body = await app.call('events.list', { after: cursor, types: types as EventType[] | undefined, alert_id: alertId, wait_seconds: LONG_POLL_SECONDS }, { signal: stop.signal });
          } catch (error) {
            if (stop.signal.aborted) break;
            throw error;
          }
          for (const event of body.events) {
            if (flags.exec !== undefined) {
              if (!(await execWithRetries(app, flags.exec, event, stop.signal))) {
                if (!stop.signal.aborted) process.exitCode = ExitCode.failure;
                return;
              }
            } else if (app.json) {
              app.io.out(JSON.stringify(event));
            } else {
              app.io.out(eventLine(event));
            }
            cursor = event.cursor;
            cursors.set(key, cursor);
          }
        }
      } finally {
        process.off('SIGINT', onInterrupt);
        process.off('SIGTERM', onInterrupt);
        app.io.note(`Stopped after cursor ${cursor}; the next \`tubekit alerts watch\` resumes there.`);
      }
    });
}

/** Runs the command for one event, retrying a failure; false when it never succeeded (or the watch was stopped). */
async function execWithRetries(app: CliApp, command: string, event: TubekitEvent, signal: AbortSignal): Promise<boolean> {
  for (let attempt = 0; ; attempt++) {
    const result = await runOnce(command, event, app.io.streams.env);
    if (result === 0) return true;
    const wait = EXEC_RETRY_MS[attempt];
    if (wait === undefined) {
      app.io.error(`--exec failed for event ${event.id} (${event.type}) ${attempt + 1} times (last: ${typeof result === 'number' ? `exit ${result}` : result}); stopping before it, so the next watch starts with it.`);
      return false;
    }
    app.io.error(`--exec failed for event ${event.id} (${typeof result === 'number' ? `exit ${result}` : result}); retrying in ${wait / 1000} s.`);
    try {
      await sleep(wait, undefined, { signal });
    } catch {
      return false;
    }
  }
}

/** `alerts triggered --since <cursor>`: the alert.triggered events after a cursor, every page, once. */
export async function triggeredSince(app: CliApp, since: string, alertId: number | undefined): Promise<void> {
  let cursor = since;
  const events: TubekitEvent[] = [];
  for (;;) {
    const body = await app.call('events.list', { after: cursor, types: ['alert.triggered'], alert_id: alertId, limit: 100 });
    events.push(...body.events);
    if (body.events.length === 0 || body.cursor === cursor) break;
    cursor = body.cursor;
  }
  if (app.json) {
    printJson(app.io, { success: true, events, cursor });
    return;
  }
  await printTable(app.io, events, [
    { header: 'Time', value: (event) => event.timestamp },
    { header: 'Alert', value: (event) => ((event.data as { alerts?: { alert_id: number }[] }).alerts ?? []).map((alert) => alert.alert_id).join(',') },
    { header: 'Channel', value: (event) => (event.data as { channel_id: string }).channel_id },
    { header: 'Handle', value: (event) => (event.data as { handle: string | null }).handle },
    { header: 'Why', value: (event) => (event.data as { reason: string }).reason },
  ]);
  app.io.note(`Next time: tubekit alerts triggered --since ${cursor}`);
}
