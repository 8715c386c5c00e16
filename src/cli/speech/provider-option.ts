import { Option } from 'commander';
import type { Provider } from '../../core/schemas/voices.js';

/** `--provider stealth|alt|elevenlabs`; `minimax` (the hosted service's name for alt) is accepted too. */
export function providerOption(description: string): Option {
  return new Option('--provider <provider>', description).choices(['stealth', 'alt', 'minimax', 'elevenlabs']);
}

export function normalizeProvider(value: string | undefined): Provider | undefined {
  if (value === undefined) return undefined;
  return value === 'minimax' ? 'alt' : (value as Provider);
}
