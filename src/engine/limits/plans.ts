/**
 * The plan table: every number of the spec's Limits section in one place, plus our documented
 * choices where the spec leaves a value open (marked "ours"). `null` means unlimited.
 * Engines can override any value (`tubekit engine limits set`), stored in settings.
 */
export const PLANS = ['starter', 'professional', 'ultimate', 'none'] as const;
export type Plan = (typeof PLANS)[number];

export interface PlanLimits {
  /** Text-to-speech and voice endpoints allowed. */
  voices: boolean;
  stealthClones: number | null;
  altClones: number | null;
  folders: number | null;
  channelsPerFolder: number;
  alerts: number | null;
  /** Webhook endpoints a user may have (ours). */
  webhookEndpoints: number;
  downloadsPerHour: number | null;
  parallelDownloads: number;
  /** Longest section of media one download may carry (seconds); subtitles are not limited. */
  downloadMaxSeconds: number;
  /** Largest file one download may produce, judged from nominal bitrates (`download-size.ts`). */
  downloadMaxBytes: number;
  /** Managed-network lookups per day (the Starter cap; stored verdicts and network lists); null = no daily cap. */
  cmsLookupsPerDay: number | null;
  /** Managed-network live checks per hour (unchecked channels and refresh=1). */
  cmsLiveChecksPerHour: number;
  /** Network details: `network` on check results, `full_network=1` rosters, network browse detail mode. */
  cmsNetworkDetails: boolean;
  analysisConcurrency: number;
  processChannelPerMinute: number;
  generatePerMinute: number;
  /** `GET /api/job-status/:id` calls per minute (a held long-poll is one call). */
  jobStatusPerMinute: number;
  maxScriptCharacters: number;
  /** Generation and analysis jobs of one user processed at once (health's max_concurrent). */
  concurrentJobs: number;
}

const shared = {
  channelsPerFolder: 30,
  processChannelPerMinute: 30, // ours
  generatePerMinute: 30, // hosted service's published figure
  jobStatusPerMinute: 60, // the figure the hosted service's clients assume
  concurrentJobs: 5, // the hosted service's health example
  downloadMaxSeconds: 3 * 3600,
  downloadMaxBytes: 500_000_000,
};

export const defaultPlanTable: Record<Plan, PlanLimits> = {
  starter: {
    ...shared,
    voices: false,
    stealthClones: 0,
    altClones: 3, // informational: the endpoint needs Professional or Ultimate
    folders: 15,
    alerts: 5, // ours
    webhookEndpoints: 2, // ours
    downloadsPerHour: 5,
    parallelDownloads: 1,
    cmsLookupsPerDay: 50, // ours
    cmsLiveChecksPerHour: 5, // ours
    cmsNetworkDetails: false,
    analysisConcurrency: 1, // ours
    maxScriptCharacters: 0,
  },
  professional: {
    ...shared,
    voices: true,
    stealthClones: 30,
    altClones: 8,
    folders: 50,
    alerts: 25, // ours
    webhookEndpoints: 10, // ours
    downloadsPerHour: 100,
    parallelDownloads: 3,
    cmsLookupsPerDay: null,
    cmsLiveChecksPerHour: 20, // ours
    cmsNetworkDetails: true,
    analysisConcurrency: 3, // ours
    maxScriptCharacters: 20_000, // ours
  },
  ultimate: {
    ...shared,
    voices: true,
    stealthClones: null,
    altClones: 15,
    folders: 200, // ours
    alerts: 100, // ours
    webhookEndpoints: 25, // ours
    downloadsPerHour: null,
    parallelDownloads: 6,
    cmsLookupsPerDay: null,
    cmsLiveChecksPerHour: 60, // ours
    cmsNetworkDetails: true,
    analysisConcurrency: 5, // ours
    maxScriptCharacters: 50_000, // ours
  },
  none: {
    ...shared,
    voices: false,
    stealthClones: 0,
    altClones: 0,
    folders: 0,
    alerts: 0,
    webhookEndpoints: 0,
    downloadsPerHour: 0,
    parallelDownloads: 0,
    cmsLookupsPerDay: 0,
    cmsLiveChecksPerHour: 0,
    cmsNetworkDetails: false,
    analysisConcurrency: 1, // video analysis is free during preview, even without a plan (ours)
    maxScriptCharacters: 0,
  },
};

export type PlanOverrides = Partial<Record<Plan, Partial<PlanLimits>>>;

export function resolvePlanTable(overrides: PlanOverrides = {}): Record<Plan, PlanLimits> {
  const table = {} as Record<Plan, PlanLimits>;
  for (const plan of PLANS) table[plan] = { ...defaultPlanTable[plan], ...overrides[plan] };
  return table;
}

export const planDisplayName: Record<Plan, string> = {
  starter: 'Starter',
  professional: 'Professional',
  ultimate: 'Ultimate',
  none: 'no active subscription',
};

export function isPlan(value: string): value is Plan {
  return (PLANS as readonly string[]).includes(value);
}

/** Limits that may be set to unlimited (`null`); the others always need a number. */
const mayBeUnlimited = new Set<keyof PlanLimits>([
  'stealthClones', 'altClones', 'folders', 'alerts', 'downloadsPerHour', 'cmsLookupsPerDay',
]);

/** Parses an override value for a limit: a whole number, "unlimited", or true/false. */
export function parseLimitValue(name: keyof PlanLimits, raw: string): PlanLimits[keyof PlanLimits] {
  if (typeof defaultPlanTable.professional[name] === 'boolean') {
    if (raw === 'true' || raw === 'false') return raw === 'true';
    throw new Error(`${name} takes true or false, not "${raw}"`);
  }
  if (raw === 'unlimited') {
    if (!mayBeUnlimited.has(name)) throw new Error(`${name} takes a whole number, not "unlimited"`);
    return null;
  }
  if (!/^\d+$/.test(raw)) throw new Error(`${name} takes a whole number${mayBeUnlimited.has(name) ? ' or "unlimited"' : ''}, not "${raw}"`);
  return Number(raw);
}

export const limitNames = Object.keys(defaultPlanTable.professional) as (keyof PlanLimits)[];
