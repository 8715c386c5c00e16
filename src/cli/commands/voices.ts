import type { Command } from 'commander';
import { ServiceError } from '../../core/errors.js';
import type { CatalogQuery, Provider } from '../../core/schemas/voices.js';
import type { CliApp } from '../app.js';
import { completesWith } from '../completion/dynamic.js';
import { confirmOrAbort } from '../confirm.js';
import { usageError } from '../../core/client-errors.js';
import { examples, withExamples } from '../help.js';
import { printJson, printTable, type Column } from '../output.js';
import { normalizeProvider, providerOption } from '../speech/provider-option.js';
import { registerVoicesInstall } from './voices-install.js';

/** One row of any provider's listing. */
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

const STAND_IN_NOTE = 'Alt voices here are the local stand-in (spoken by eSpeak NG): no MiniMax key is configured where the engine runs (TUBEKIT_MINIMAX_API_KEY).';

/** The catalog filters `voices list --provider elevenlabs` takes, as the route names them. */
interface CatalogOptions {
  search?: string;
  gender?: string;
  language?: string;
  accent?: string;
  age?: string;
  sort?: string;
  page?: string;
  pageSize?: string;
}

const catalogQuery = (options: CatalogOptions): Partial<CatalogQuery> => ({
  search: options.search,
  gender: options.gender,
  language: options.language,
  accent: options.accent,
  age: options.age,
  sort: options.sort as never,
  page: options.page as never,
  page_size: options.pageSize as never,
});

/** The voices of one provider, or of stealth and alt (stealth first) when none is named. */
export async function listVoiceRows(app: CliApp, provider?: Provider, query: Partial<CatalogQuery> = { page_size: 100 }): Promise<VoiceRow[]> {
  if (provider === 'elevenlabs') {
    const { voices } = await app.call('voices.catalog', query as never);
    return voices.map((voice) => ({ provider, voice_id: voice.voice_id, name: voice.name, language: voice.language ?? '', is_cloned: voice.is_cloned }));
  }
  const rows: VoiceRow[] = [];
  if (provider !== 'alt') {
    const { voices } = await app.call('voices.stealth.list', {});
    rows.push(...voices.map((voice) => ({ ...voice, provider: 'stealth' as const })));
  }
  if (provider !== 'stealth') {
    try {
      const body = await app.call('voices.alt.list', {});
      if (body.upstream === 'stand-in' && provider === 'alt') app.io.note(STAND_IN_NOTE);
      rows.push(...body.voices.map((voice) => ({ ...voice, provider: 'alt' as const })));
    } catch (error) {
      // Asked for both, a service without the alt provider under its default name still lists what it has.
      if (provider || !(error instanceof ServiceError) || error.status !== 404) throw error;
      app.io.note(altMissingNote(app));
    }
  }
  return rows;
}

const LIST_ROUTE = { stealth: 'voices.stealth.list', alt: 'voices.alt.list' } as const;
const DELETE_ROUTE = { stealth: 'voices.stealth.delete', alt: 'voices.alt.delete', elevenlabs: 'voices.elevenlabs.delete' } as const;

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
    'tubekit voices list --provider elevenlabs --gender female --language en --sort name',
    'tubekit voices delete clone_UaoNUx3r_1um --provider stealth',
  ]);

  voices
    .command('list')
    .description('Built-in stealth voices and your clones (stealth and alt unless --provider; elevenlabs lists the ElevenLabs catalog)')
    .addHelpText('before', examples([
      'tubekit voices list',
      'tubekit voices list --provider stealth --json | jq -r \'.voices[] | select(.is_cloned) | .voice_id\'   # your clones',
      'tubekit voices list --provider elevenlabs --search narrator --page-size 20 --page 1',
    ]))
    .addOption(providerOption('only this provider\'s voices'))
    .option('--search <text>', 'elevenlabs: words in the name, description or labels')
    .option('--gender <gender>', 'elevenlabs: female, male or neutral')
    .option('--language <language>', 'elevenlabs: a code or name, e.g. en or English')
    .option('--accent <accent>', 'elevenlabs: e.g. british')
    .option('--age <age>', 'elevenlabs: young, middle aged or old')
    .option('--sort <order>', 'elevenlabs: trending (default), name or newest')
    .option('--page <n>', 'elevenlabs: the page, from 0')
    .option('--page-size <n>', 'elevenlabs: voices a page, at most 100 (default 30)')
    .action(async (options: CatalogOptions & { provider?: string }) => {
      const provider = normalizeProvider(options.provider);
      const filters = Object.entries({ '--search': options.search, '--gender': options.gender, '--language': options.language, '--accent': options.accent, '--age': options.age, '--sort': options.sort, '--page': options.page, '--page-size': options.pageSize });
      const filter = filters.find(([, value]) => value !== undefined)?.[0];
      if (filter && provider !== 'elevenlabs') throw usageError(`${filter} filters the ElevenLabs catalog: add --provider elevenlabs.`);
      if (provider === 'elevenlabs') {
        const body = await app.call('voices.catalog', catalogQuery(options) as never);
        await app.render(body, (b) => {
          printTable(app.io, b.voices.map((voice) => ({ provider, voice_id: voice.voice_id, name: voice.name, language: voice.language ?? '', is_cloned: voice.is_cloned })), columns);
          if (b.has_more) app.io.note(`More voices follow: --page ${Number(options.page ?? 0) + 1}.`);
        });
        return;
      }
      if (app.json && provider) {
        // One provider: exactly its API body.
        const body = await app.call(LIST_ROUTE[provider], {});
        if ('upstream' in body && body.upstream === 'stand-in') app.io.note(STAND_IN_NOTE);
        printJson(app.io, body);
        return;
      }
      const rows = await listVoiceRows(app, provider);
      // Both providers: one body in the API's shape, each voice marked with its provider.
      await app.render({ success: true, voices: rows }, (body) => printTable(app.io, body.voices, columns));
    });

  registerVoicesInstall(voices, app);

  completesWith(voices.command('delete <voice_id>'), 'deletable-voice')
    .description('Delete one of your clones, permanently (asks first on a terminal)')
    .addHelpText('before', examples(['tubekit voices delete clone_UaoNUx3r_1um --provider stealth', 'tubekit voices delete clone_UaoNUx3r_1um --provider stealth --yes   # no question: for scripts']))
    .addOption(providerOption('the clone\'s provider (required)'))
    .option('-y, --yes', 'do not ask for confirmation')
    .action(async (voiceId: string, options: { provider?: string; yes?: boolean }) => {
      const provider = normalizeProvider(options.provider);
      if (!provider) throw usageError('Say which provider the voice belongs to: --provider stealth, alt or elevenlabs.');
      await confirmOrAbort(app.io, `Delete the ${provider} voice ${voiceId} permanently?`, options.yes);
      const body = await app.call(DELETE_ROUTE[provider], { voice_id: voiceId });
      await app.render(body, () => app.io.note(`Deleted ${provider} voice ${voiceId}.`));
    });
}
