import type { Provider } from '../../core/schemas/voices.js';
import type { CliApp } from '../app.js';
import { listVoiceRows } from '../commands/voices.js';
import { usageError } from '../../core/client-errors.js';

/**
 * The voice for `generate` when none was given: a searchable list on a terminal (type to
 * filter by name, id, language); elsewhere a usage error, since nobody can answer.
 */
export async function promptForVoice(app: CliApp, provider: Provider): Promise<string> {
  if (!app.io.canPrompt) {
    throw usageError('Say which voice to use: --voice <voice_id>.', `See the voices with \`tubekit voices list --provider ${provider}\`.`);
  }
  const voices = await listVoiceRows(app, provider);
  if (voices.length === 0) throw usageError(`You have no ${provider} voices yet; clone one with \`tubekit clone <file> --name <name> --provider ${provider}\`.`);
  const { search } = await import('@inquirer/prompts');
  return search(
    {
      message: `Voice (${provider})`,
      source: (term) => {
        const words = (term ?? '').toLowerCase().split(/\s+/).filter(Boolean);
        return voices
          .filter((voice) => {
            const text = `${voice.name} ${voice.voice_id} ${voice.language} ${voice.is_cloned ? 'clone' : ''}`.toLowerCase();
            return words.every((word) => text.includes(word));
          })
          .map((voice) => ({
            name: `${voice.name} — ${voice.language}${voice.is_cloned ? ', your clone' : ''}`,
            value: voice.voice_id,
            description: voice.voice_id,
          }));
      },
    },
    { output: app.io.streams.stderr as never },
  );
}
