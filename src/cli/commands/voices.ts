import type { Command } from 'commander';
import { ServiceError } from '../../core/errors.js';
import type { Provider } from '../../core/schemas/voices.js';
import type { CliApp } from '../app.js';
import { completesWith } from '../completion/dynamic.js';
import { confirmOrAbort } from '../confirm.js';
import { usageError } from '../errors.js';
import { examples, withExamples } from '../help.js';
import { printJson, printTable, type Column } from '../output.js';
import { normalizeProvider, providerOption } from '../speech/provider-option.js';

/** One row of either provider's listing. */
export interface VoiceRow {
  provider: Provider;
  voice_id: string;
  name: string;
  language: string;
  is_cloned: boolean;
}

const columns: Column<VoiceRow>[] = [
  { header: 'ID', value: (voice) => voice.voice_id },
  { header: 'Name', value: (voice) => voice.name },
  { header: 'Language', value: (voice) => voice.language },
  { header: 'Provider', value: (voice) => voice.provider },
  { header: 'Cloned', value: (voice) => (voice.is_cloned ? 'yes' : 'no') },
];

/** The voices of one provider, or of both (stealth first) when none is named. */
export async function listVoiceRows(app: CliApp, provider?: Provider): Promise<VoiceRow[]> {
  const rows: VoiceRow[] = [];
  if (provider !== 'alt') {
    const { voices } = await app.call('voices.stealth.list', {});
    rows.push(...voices.map((voice) => ({ ...voice, provider: 'stealth' as const })));
  }
  if (provider !== 'stealth') {
    try {
      const { voices } = await app.call('voices.alt.list', {});
      rows.push(...voices.map((voice) => ({ ...voice, provider: 'alt' as const })));
    } catch (error) {
      // Asked for both, a service without the alt provider under its default name still lists what it has.
      if (provider || !(error instanceof ServiceError) || error.status !== 404) throw error;
      app.io.note(altMissingNote(app));
    }
  }
  return rows;
}

/** What to do when the service has no alt provider under the name tried. */
function altMissingNote(app: CliApp): string {
  const name = app.settings.altProviderName;
  return name
    ? `The service has no alt provider named "${name}" (alt_provider_name): only its stealth voices are listed.`
    : 'The service has no alt provider at /api/voices/alt: only its stealth voices are listed. If it names it otherwise, set it: tubekit config set alt_provider_name <name> (e.g. minimax).';
}

export function registerVoices(program: Command, app: CliApp): void {
  const voices = withExamples(program.command('voices').description('List and delete text-to-speech voices'), [
    'tubekit voices list',
    'tubekit voices list --provider alt --json',
    'tubekit voices delete clone_UaoNUx3r_1um --provider stealth',
  ]);

  voices
    .command('list')
    .description('Built-in stealth voices and your clones (both providers unless --provider)')
    .addHelpText('before', examples(['tubekit voices list', 'tubekit voices list --provider stealth --json | jq -r \'.voices[] | select(.is_cloned) | .voice_id\'   # your clones']))
    .addOption(providerOption('only this provider\'s voices'))
    .action(async (options: { provider?: string }) => {
      const provider = normalizeProvider(options.provider);
      if (app.json && provider) {
        // One provider: exactly its API body.
        printJson(app.io, await app.call(provider === 'stealth' ? 'voices.stealth.list' : 'voices.alt.list', {}));
        return;
      }
      const rows = await listVoiceRows(app, provider);
      // Both providers: one body in the API's shape, each voice marked with its provider.
      await app.render({ success: true, voices: rows }, (body) => printTable(app.io, body.voices, columns));
    });

  completesWith(voices.command('delete <voice_id>'), 'deletable-voice')
    .description('Delete one of your clones, permanently (asks first on a terminal)')
    .addHelpText('before', examples(['tubekit voices delete clone_UaoNUx3r_1um --provider stealth', 'tubekit voices delete clone_UaoNUx3r_1um --provider stealth --yes   # no question: for scripts']))
    .addOption(providerOption('the clone\'s provider (required)'))
    .option('-y, --yes', 'do not ask for confirmation')
    .action(async (voiceId: string, options: { provider?: string; yes?: boolean }) => {
      const provider = normalizeProvider(options.provider);
      if (!provider) throw usageError('Say which provider the voice belongs to: --provider stealth or --provider alt.');
      await confirmOrAbort(app.io, `Delete the ${provider} voice ${voiceId} permanently?`, options.yes);
      const body = await app.call(provider === 'stealth' ? 'voices.stealth.delete' : 'voices.alt.delete', { voice_id: voiceId });
      await app.render(body, () => app.io.note(`Deleted ${provider} voice ${voiceId}.`));
    });
}
