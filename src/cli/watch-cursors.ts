/**
 * Where `alerts watch` keeps its place: one cursor per service, key and selection, in a private
 * file — the data dir's in local mode, the config dir's in remote mode — so the next watch resumes.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const FILE = 'watch-cursors.json';

export class WatchCursors {
  readonly file: string;

  constructor(dir: string) {
    this.file = path.join(dir, FILE);
  }

  /** The name of one watch: the service it reads, whose key (hashed, never stored), what it follows. */
  static keyOf(parts: { location: string; apiKey?: string; alertId?: number; events?: readonly string[] }): string {
    const who = parts.apiKey ? createHash('sha256').update(parts.apiKey).digest('hex').slice(0, 16) : 'default';
    return [parts.location, who, parts.alertId ?? '*', parts.events?.join(',') || '*'].join('|');
  }

  private read(): Record<string, string> {
    try {
      return JSON.parse(fs.readFileSync(this.file, 'utf8')) as Record<string, string>;
    } catch {
      return {};
    }
  }

  get(key: string): string | undefined {
    return this.read()[key];
  }

  /** Written whole to a temporary file and renamed, so a crash leaves the old cursors or the new. */
  set(key: string, cursor: string): void {
    const all = { ...this.read(), [key]: cursor };
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    const made = `${this.file}.${process.pid}.tmp`;
    fs.writeFileSync(made, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
    fs.renameSync(made, this.file);
  }
}
