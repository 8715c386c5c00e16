import { isChannelId } from '../core/channel-input.js';
import type { CliApp } from './app.js';
import { usageError } from '../core/client-errors.js';

/** A positive integer id from an argument or option, or a usage error before any call. */
export function parseId(value: string, what: string): number {
  if (!/^\d+$/.test(value.trim()) || Number(value) < 1) {
    throw usageError(`${what} must be a positive whole number, not "${value}".`);
  }
  return Number(value);
}

export function parseWholeNumber(value: string, what: string, options: { min?: number; max?: number } = {}): number {
  const number = Number(value);
  if (!/^\d+$/.test(value.trim()) || (options.min !== undefined && number < options.min) || (options.max !== undefined && number > options.max)) {
    const range = options.max !== undefined ? ` from ${options.min ?? 0} to ${options.max}` : '';
    throw usageError(`${what} must be a whole number${range}, not "${value}".`);
  }
  return number;
}

/** A channel argument as an id: `UC…` ids pass through; handles and URLs are resolved first. */
export async function resolveChannelArg(app: CliApp, input: string): Promise<string> {
  const trimmed = input.trim();
  if (isChannelId(trimmed)) return trimmed;
  const resolved = await app.call('channels.resolve', { input: trimmed });
  app.io.trace(`resolved ${trimmed} → ${resolved.channel_id}`);
  return resolved.channel_id;
}

/** Arguments, with `-` standing for one value per line of stdin. */
export async function expandStdinArgs(app: CliApp, values: string[]): Promise<string[]> {
  if (!values.includes('-')) return values;
  const lines = (await app.io.readStdin()).split(/\r?\n/).map((line) => line.trim()).filter(Boolean);
  return values.flatMap((value) => (value === '-' ? lines : [value]));
}
