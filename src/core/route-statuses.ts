/**
 * Every status an endpoint can answer besides its success, for the published contract. Most come
 * from the route table itself (a key is needed → 401; a plan → 403; a body is read → 400 and 413);
 * the rest are what each feature raises, listed per route below from the engine's code and the
 * spec's per-endpoint lists. Typed over every route name, so a new route cannot go undocumented.
 */
import { pathParams, type RouteDef } from './route.js';
import { routes, type RouteName } from './routes.js';

export interface ErrorAnswer {
  status: number;
  /** When and why this endpoint answers it, with the machine codes it carries. */
  description: string;
  /** The answer carries a Retry-After header (seconds). */
  retryAfter?: boolean;
}

type FeatureStatus = 400 | 403 | 404 | 409 | 429 | 501 | 502 | 503 | 507;
type FeatureAnswers = Partial<Record<FeatureStatus, string>>;

const sampleRefused = 'The audio sample is missing, cannot be decoded, or is too short, too long or too large.';
const cloneLimit = '`limit_reached`: your plan\'s clone limit is reached.';
const videoRefused = '`unsupported_url` or `video_unavailable`: the link is not a supported video, or the video does not exist or has no content yet.';
const channelUnknown = 'The channel id is malformed, or no channel has it.';
const diskFull = '`insufficient_storage`: the disk holding the service\'s data is full; nothing was saved.';
const channelTerminated = '`channel_terminated`: the channel was terminated (the message says when; its record is at GET /api/terminated-channels/:channel_id).';

// On a data dir of the live platform (`tubekit engine platform live`), a route that reads the
// video site can meet the site's failures, and a feature the live platform does not offer yet
// answers 501 instead of sample data.
const liveUnreachable = 'On the live platform, `platform_unreachable`: the video site could not be reached (offline, DNS, refused, timed out); nothing was stored.';
const liveRefused = 'On the live platform, `platform_refused`: the video site kept refusing (HTTP 429, a bot check, a sign-in wall) after backing off; slow down, use a proxy or a cookies file.';
const liveNotUnderstood = 'On the live platform, `platform_page_not_understood`: a page of the video site could not be read (the raw answer is saved under the data dir for a bug report); or `upstream_error`: the site answered with an error status.';

/** The answers of a route that reads the live video site, added to the route's own (a status it already has is joined). */
function readsLiveSite(answers: FeatureAnswers): FeatureAnswers {
  const live: FeatureAnswers = { 429: liveRefused, 502: liveNotUnderstood, 503: liveUnreachable };
  const joined: FeatureAnswers = { ...answers };
  for (const [status, text] of Object.entries(live) as Array<[`${FeatureStatus}`, string]>) {
    const code = Number(status) as FeatureStatus;
    joined[code] = answers[code] ? `${answers[code]} ${text}` : text;
  }
  return joined;
}

/** What each feature answers beyond what its route's properties imply. */
const featureAnswers: Record<RouteName, FeatureAnswers> = {
  health: {},
  'voices.stealth.list': {},
  'voices.stealth.clone': { 400: sampleRefused, 403: cloneLimit, 507: diskFull },
  'voices.stealth.delete': { 404: 'The voice is not one of your stealth clones (built-in voices cannot be deleted).' },
  'voices.alt.list': {},
  'voices.alt.clone': {
    400: sampleRefused,
    403: cloneLimit,
    502: '`upstream_error`: the alt voice provider refused the clone; nothing was saved.',
    507: diskFull,
  },
  'voices.alt.delete': { 404: 'The voice is not one of your alt clones.' },
  'voices.catalog': {
    502: '`upstream_error`: ElevenLabs did not answer the catalog.',
    503: '`unavailable`: the engine has no ElevenLabs key.',
  },
  'voices.elevenlabs.clone': {
    400: sampleRefused,
    403: cloneLimit,
    502: '`upstream_error`: ElevenLabs refused the clone; nothing was saved.',
    503: '`unavailable`: the engine has no ElevenLabs key.',
    507: diskFull,
  },
  'voices.elevenlabs.delete': { 404: 'The voice is not one of your ElevenLabs clones.' },
  generate: {
    400: 'The voice is unknown to the provider, a voice setting is out of range, or a field belongs to another provider.',
    503: '`unavailable`: provider=elevenlabs and the engine has no ElevenLabs key.',
    429: '`rate_limited`: the per-minute generation limit of your plan is reached.',
  },
  'jobs.status': {
    404: 'No generation or analysis job with this id belongs to the key\'s user.',
    429: '`rate_limited`: more than the per-minute limit of status calls (a held long-poll counts once).',
  },
  'jobs.list': {},
  'channels.process': readsLiveSite({
    400: 'The channel input cannot be resolved to a channel.',
    404: channelTerminated,
    429: '`rate_limited`: the per-minute limit on channel processing requests is reached.',
  }),
  'channels.history': { 400: 'The channel id or the number of days is malformed.', 404: 'The index does not know the channel.' },
  'channels.videos': { 400: 'The channel id, limit or sort is malformed.', 404: 'The index does not know the channel.' },
  'channels.checks': { 400: 'The channel id is malformed.' },
  'channels.processStatus': { 404: 'No channel job with this id belongs to the key\'s user.' },
  download: readsLiveSite({
    400: `${videoRefused} Also \`subtitles_unavailable\`, a bad start/end section, or a section past the size limit.`,
    429: '`rate_limited`: the hourly download cap or the parallel cap of your plan is reached (never queued).',
    502: '`upstream_error`: the video platform did not deliver the media; nothing counts toward the caps. Retry later, or clip with start/end.',
    503: '`unavailable`: video and audio downloads need ffmpeg where the engine runs (subtitles do not); on the live platform yt-dlp and ffprobe too, and a yt-dlp recent enough (the message names the version found and how to install a current one).',
    507: diskFull,
  }),
  'video.info': readsLiveSite({ 400: `${videoRefused} (A premiere that has not started is answered, with \`live_status: is_upcoming\`.)` }),
  'folders.list': {},
  'folders.create': {
    400: 'The folder name is invalid.',
    403: '`limit_reached`: your plan\'s folder limit is reached.',
    409: '`conflict`: you already have a folder of that name.',
  },
  'folders.rename': {
    400: 'The folder name is invalid.',
    404: 'No folder with this id is yours.',
    409: '`conflict`: you already have a folder of that name.',
  },
  'folders.delete': { 404: 'No folder with this id is yours.' },
  'folders.channels': { 404: 'No folder with this id is yours.' },
  'saved.add': readsLiveSite({
    400: 'A channel id is invalid, or the folder does not exist or is not yours.',
    403: '`limit_reached`: the save would push the folder past its channel cap; nothing was saved.',
    404: channelTerminated,
  }),
  'saved.remove': { 404: 'The channel is not saved in any of your folders.' },
  'saved.move': {
    400: 'A folder does not exist or is not yours, or both are the same folder.',
    403: '`limit_reached`: the target folder is at its channel cap.',
    404: 'The channel is not saved in the source folder.',
  },
  'channels.resolve': readsLiveSite({ 400: 'The input is not a channel handle, id or URL.', 404: `No channel matches the input; or ${channelTerminated}` }),
  'alerts.list': {},
  'alerts.create': { 400: 'The alert type or a filter is invalid.', 403: '`limit_reached`: your plan\'s alert cap is reached.' },
  'alerts.update': { 400: 'The alert type or a filter is invalid.', 404: 'No alert with this id is yours.' },
  'alerts.delete': { 404: 'No alert with this id is yours.' },
  'alerts.triggered': { 404: 'The alert_id filter names no alert of yours.' },
  'alerts.status': {},
  'events.list': {},
  'webhooks.list': {},
  'webhooks.create': {
    400: 'The URL is not https (http only to loopback when the operator allows it), carries credentials, or its host resolves to a loopback, private, link-local, cloud-metadata or reserved address (the message names the rule); or an event type is unknown.',
    403: '`limit_reached`: your plan\'s webhook endpoint cap is reached.',
    404: 'The alert_id names no alert of yours.',
  },
  'webhooks.update': { 400: 'As for creating one.', 404: 'No webhook endpoint with this id is yours, or the alert_id names no alert of yours.' },
  'webhooks.delete': { 404: 'No webhook endpoint with this id is yours.' },
  'webhooks.rotateSecret': { 404: 'No webhook endpoint with this id is yours.' },
  'webhooks.deliveries': { 404: 'The endpoint_id names no webhook endpoint of yours.' },
  'webhooks.redeliver': { 404: 'No delivery with this id is yours.', 409: 'Its endpoint is disabled: enable it first.' },
  'monetization.external': readsLiveSite({
    400: channelUnknown,
    404: channelTerminated,
    502: '`upstream_error`: the monetization classifier failed on this channel; nothing was stored.',
  }),
  'monetization.ads': readsLiveSite({ 400: channelUnknown, 404: channelTerminated }),
  'cms.check': readsLiveSite({
    400: channelUnknown,
    404: channelTerminated,
    429: '`upgrade_required`: the Starter daily lookup cap is reached; or `rate_limited`: the hourly live-check cap is reached.',
  }),
  'cms.networks': {
    403: '`upgrade_required`: network details (oid) need the Professional or Ultimate plan.',
    404: 'No managed network with this oid is known.',
    429: '`upgrade_required`: the Starter daily lookup cap is reached.',
  },
  'analysis.submit': readsLiveSite({
    400: videoRefused,
    429: '`rate_limited`: as many of your analyses are waiting or running as your plan allows at once.',
  }),
  'terminated.search': { 400: 'No keyword with letters or digits, too many keywords, an unknown language, or a min above its max.' },
  'terminated.show': { 400: 'The channel id is malformed.', 404: 'No terminated channel has this id.' },
  'collabs.top': { 400: 'An unknown language.' },
  'collabs.channel': { 400: 'An unknown language.', 404: channelTerminated },
  'collabs.feed': { 400: 'A channel id is malformed.' },
};

/** Whether a request can carry anything to refuse: a path parameter, a query, or a body. */
const takesInput = (route: RouteDef) =>
  route.method !== 'GET' || route.encoding !== 'none' || pathParams(route.path).length > 0;

/** The error answers of one route, by ascending status. */
export function errorAnswers(name: RouteName): ErrorAnswer[] {
  const route: RouteDef = routes[name];
  const feature = featureAnswers[name];
  const answers: ErrorAnswer[] = [];
  const add = (status: number, general: string | undefined, retryAfter?: boolean) => {
    const text = [general, feature[status as FeatureStatus]].filter(Boolean).join(' ');
    answers.push({ status, description: text, ...(retryAfter ? { retryAfter } : {}) });
  };

  if (takesInput(route) || feature[400]) add(400, '`invalid_request`: a field is missing or invalid; the error names it.');
  // An open endpoint answers without a key, but a key that is sent must be valid.
  if (route.auth === false) add(401, '`unauthorized`: a key was sent and it is unknown or revoked (without one, the endpoint answers its public fields).');
  else {
    add(401, route.scope
      ? `\`unauthorized\`: the API key is missing, unknown or revoked; \`scope_required\`: the key lacks the "${route.scope}" scope.`
      : '`unauthorized`: the API key is missing, unknown or revoked.');
  }
  const planGated = route.auth !== false && !route.openToAllPlans;
  if (planGated || feature[403]) {
    add(403, planGated ? '`plan_required`: the key\'s plan does not include this endpoint.' : undefined);
  }
  if (feature[404]) add(404, '`not_found`:');
  // A body that stops arriving is answered 408 and closed (serve's stall guard).
  if (route.method !== 'GET') add(408, '`request_timeout`: the request body stopped arriving; the connection was closed.');
  if (feature[409]) add(409, undefined);
  // Fastify reads a body on every method but GET; past the body limit it answers 413.
  if (route.method !== 'GET') add(413, '`invalid_request`: the request body is larger than the server accepts.');
  if (feature[429]) add(429, 'Too many requests; wait the Retry-After seconds.', true);
  if (feature[501]) add(501, undefined);
  if (feature[502]) add(502, undefined);
  if (feature[503]) add(503, undefined);
  if (feature[507]) add(507, undefined);
  return answers;
}
