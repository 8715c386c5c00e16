/**
 * The MCP tool of each route: a short verb an agent picks well, the hosted service's own MCP name
 * where it has one for the same thing (offered too, as an alias), and an example call. The type
 * makes this list name every route of the table exactly once: a route added without a line here
 * does not compile (and test/mcp fails on the built server). A new route is one line.
 */
import type { RouteName } from '../core/routes.js';

export interface ToolNaming {
  /** The tool's name. */
  name: string;
  /** More names of the same tool (the hosted service's MCP uses them). */
  aliases?: string[];
  /** Arguments of a typical call, shown in the description. */
  example: Record<string, unknown>;
  /** A limit or habit of the route worth telling an agent, beyond what the schema says. */
  note?: string;
}

/** A channel id as the examples show it (24 characters starting with UC). */
const CHANNEL = 'UCX6OQ3DkcsbYNE6H8uQQuVA';

export const toolNames = {
  health: { name: 'health_check', example: {}, note: 'Answers without a key; a quick way to see the engine is up.' },
  'voices.stealth.list': { name: 'list_stealth_voices', example: {} },
  'voices.stealth.clone': { name: 'clone_stealth_voice', example: { displayName: 'My voice', audioFile: '/home/me/sample.wav', langCode: 'EN_US' }, note: 'The sample: MP3, WAV, M4A, OGG or WEBM, at most 15 MB and 30 s.' },
  'voices.stealth.delete': { name: 'delete_stealth_voice', example: { voice_id: 'clone-1' } },
  'voices.alt.list': { name: 'list_alt_voices', example: {} },
  'voices.alt.clone': { name: 'clone_alt_voice', example: { voice_name: 'Host', audio_file: 'https://example.com/host.mp3', language: 'Spanish' }, note: 'The sample: at least 30 s and at most 5 MB.' },
  'voices.alt.delete': { name: 'delete_alt_voice', example: { voice_id: 'alt-1' } },
  'voices.catalog': { name: 'list_elevenlabs_voices', example: { search: 'narrator', gender: 'female', page_size: 20 }, note: 'The ElevenLabs catalog of the operator\'s account; page from 0, has_more says whether another page follows.' },
  'voices.elevenlabs.clone': { name: 'clone_elevenlabs_voice', example: { voice_name: 'Host', audio_file: '/home/me/host.mp3' }, note: 'An instant voice clone at ElevenLabs; the sample at most 10 MB.' },
  'voices.elevenlabs.delete': { name: 'delete_elevenlabs_voice', example: { voice_id: 'el_…' } },
  generate: { name: 'generate_tts', example: { script: 'Hello from tubekit.', voice_id: 'espeak-en-us' }, note: 'Returns a job at once; wait_for_job (or get_job) gives the MP3 and its SRT transcript when it completes. provider: stealth (speaking_rate, temperature, stealth_model), alt or minimax (speed 0.5–2, pitch, volume), elevenlabs (model_id, stability, similarity_boost, style 0–1, speed 0.7–1.2, generate_srt; at least 200 characters).' },
  'jobs.status': { name: 'get_job', aliases: ['get_video_analysis_result'], example: { job_id: '3f2b9c1e-…', wait_seconds: 10 }, note: 'For generation and analysis jobs; wait_seconds (at most 30) holds the call until the job ends.' },
  'jobs.list': { name: 'list_jobs', example: { kind: 'generation', status: 'failed', limit: 10 }, note: 'Recent jobs of every kind, newest first: finds a lost job id again.' },
  'channels.process': { name: 'process_channel', example: { channel: '@honestrunning', type: 'longform' }, note: 'Returns a job at once; poll it with get_channel_job or wait_for_job.' },
  'channels.processStatus': { name: 'get_channel_job', example: { job_id: 1, wait_seconds: 10 }, note: 'wait_seconds (at most 30) holds the call until the job ends.' },
  download: { name: 'download_video', example: { video_url: 'https://youtu.be/GHGuclERoWA', format: 'audio', start: '1:30', end: '2:00' }, note: 'Needs a key with the "generations" scope. The file comes back as a link; subtitles also inline.' },
  'video.info': { name: 'get_video_info', example: { url: 'https://www.youtube.com/watch?v=GHGuclERoWA' }, note: 'One video\'s metadata with yt-dlp\'s field names (a tubekit extension).' },
  'folders.list': { name: 'list_folders', example: {} },
  'folders.create': { name: 'create_folder', example: { name: 'Cooking' } },
  'channels.videos': { name: 'list_channel_videos', example: { channel_id: CHANNEL, limit: 10, sort: 'views' }, note: 'A channel\'s recent videos from the index (a tubekit extension); sort=views ranks its newest 500.' },
  'channels.checks': { name: 'get_stored_channel_checks', example: { channel_id: CHANNEL }, note: 'The ad, external-monetization and managed-network verdicts already stored for a channel; null where never checked. Runs no check (a tubekit extension).' },
  'channels.history': { name: 'get_channel_history', example: { channel_id: CHANNEL, days: 30 }, note: 'Daily subscribers, views and videos of a channel; null days are gaps in what the index knows (a tubekit extension).' },
  'folders.rename': { name: 'rename_folder', example: { id: 1, name: 'Baking' } },
  'folders.delete': { name: 'delete_folder', example: { id: 1 } },
  'folders.channels': { name: 'list_folder_channels', example: { id: 1 } },
  'saved.add': { name: 'save_channels', example: { channel_ids: [CHANNEL], folder_id: 1 } },
  'saved.remove': { name: 'unsave_channel', example: { channel_id: CHANNEL } },
  'saved.move': { name: 'move_saved_channel', example: { channel_id: CHANNEL, from_folder_id: 1, to_folder_id: 2 } },
  'channels.resolve': { name: 'resolve_channel', aliases: ['resolve_url', 'resolve_handle'], example: { input: '@goldenpiano' } },
  'alerts.list': { name: 'list_alerts', example: {} },
  'alerts.create': { name: 'create_alert', example: { name: 'Fast risers', alert_type: 'outlier', filters: { min_subs: 1000 } } },
  'alerts.update': { name: 'update_alert', example: { id: 1, name: 'Faster risers' } },
  'alerts.delete': { name: 'delete_alert', example: { id: 1 } },
  'alerts.triggered': { name: 'list_triggered_alerts', example: { new_only: true, per_page: 20 } },
  'alerts.status': { name: 'get_alert_status', example: {} },
  'monetization.external': { name: 'check_external_monetization', example: { channel_id: CHANNEL, cached_ok_secs: 86400 } },
  'monetization.ads': { name: 'check_ad_monetization', example: { channel_id: CHANNEL } },
  'cms.check': { name: 'check_channel_cms', example: { channel_id: CHANNEL } },
  'cms.networks': { name: 'list_cms_networks', example: { sort: 'subscribers', limit: 10 } },
  'terminated.search': { name: 'search_terminated_channels', example: { q: 'piano', sort: 'subs_desc' } },
  'terminated.show': { name: 'get_terminated_channel', example: { channel_id: 'UCxxxxxxxxxxxxxxxxxxxxxx' }, note: 'The stored record of one terminated channel; 404 when the id is not a terminated channel (a tubekit extension).' },
  'analysis.submit': { name: 'start_video_analysis', example: { video_url: 'https://youtu.be/GHGuclERoWA', prompt: 'List the shots with start and end times as JSON.' }, note: 'Free during preview. Returns a job at once; wait_for_job gives the analysis text.' },
  'collabs.top': { name: 'top_collab_channels', example: { metric: 'subs', period: 7 } },
  'collabs.channel': { name: 'get_channel_collabs', example: { channel_id: CHANNEL } },
  'events.list': { name: 'list_events', example: { after: '0', types: 'alert.triggered', wait_seconds: 10 }, note: 'Your events after a cursor; pass the answer\'s cursor to the next call (a tubekit extension).' },
  'webhooks.list': { name: 'list_webhooks', example: {} },
  'webhooks.create': { name: 'create_webhook', example: { url: 'https://example.com/hooks/tubekit', events: ['alert.triggered'] }, note: 'The answer carries the signing secret once: keep it (a tubekit extension).' },
  'webhooks.update': { name: 'update_webhook', example: { id: 1, enabled: true } },
  'webhooks.delete': { name: 'delete_webhook', example: { id: 1 } },
  'webhooks.rotateSecret': { name: 'rotate_webhook_secret', example: { id: 1 } },
  'webhooks.deliveries': { name: 'list_webhook_deliveries', example: { failed: true } },
  'webhooks.redeliver': { name: 'redeliver_webhook', example: { id: 1 } },
  'collabs.feed': { name: 'collabs_feed', example: { days: 7, sort: 'views' } },
} as const satisfies Record<RouteName, ToolNaming>;
