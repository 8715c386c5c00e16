/** Every environment variable tubekit reads, in one place. */
export const environment = {
  /** API key (remote mode; in local mode, acts as that key instead of the default local user). */
  TUBEKIT_API_KEY: 'TUBEKIT_API_KEY',
  /** A file holding the API key (an alternative to the variable above). */
  TUBEKIT_API_KEY_FILE: 'TUBEKIT_API_KEY_FILE',
  /** Base URL of the service; setting it selects remote mode. */
  TUBEKIT_BASE_URL: 'TUBEKIT_BASE_URL',
  /** Configuration profile to use (default: "default"). */
  TUBEKIT_PROFILE: 'TUBEKIT_PROFILE',
  /** Data dir of the embedded engine (default: $XDG_DATA_HOME/tubekit). */
  TUBEKIT_DATA_DIR: 'TUBEKIT_DATA_DIR',
  /** Where the embedded engine keeps its state: postgres://… or sqlite:<file> (like --store). */
  TUBEKIT_STORE: 'TUBEKIT_STORE',
  /** Where the embedded engine keeps its files (like --files-dir). */
  TUBEKIT_FILES_DIR: 'TUBEKIT_FILES_DIR',
  /** Where the config file lives (default: the platform's config dir). */
  TUBEKIT_CONFIG_DIR: 'TUBEKIT_CONFIG_DIR',
  /** The most one remote call may take in seconds, retries included (like --request-timeout). */
  TUBEKIT_TIMEOUT: 'TUBEKIT_TIMEOUT',
  /** The live platform: every request to this origin instead of the site's (same path and query). */
  TUBEKIT_PLATFORM_ORIGIN: 'TUBEKIT_PLATFORM_ORIGIN',
  /** The live platform's proxy (else HTTPS_PROXY). */
  TUBEKIT_PROXY: 'TUBEKIT_PROXY',
  /** The live platform's Netscape cookies file. */
  TUBEKIT_COOKIES: 'TUBEKIT_COOKIES',
  /** The yt-dlp live downloads run (default: yt-dlp on PATH). */
  TUBEKIT_YTDLP: 'TUBEKIT_YTDLP',
  /** The live platform's requests a second to each host (default 2). */
  TUBEKIT_PLATFORM_RATE: 'TUBEKIT_PLATFORM_RATE',
  /** Vision model for analysis jobs of engines started here (serve, workers): openai-compatible or gemini. */
  TUBEKIT_ANALYSIS_PROVIDER: 'TUBEKIT_ANALYSIS_PROVIDER',
  /** Its API address (default: OpenAI's or Gemini's). */
  TUBEKIT_ANALYSIS_BASE_URL: 'TUBEKIT_ANALYSIS_BASE_URL',
  /** Its model name. */
  TUBEKIT_ANALYSIS_MODEL: 'TUBEKIT_ANALYSIS_MODEL',
  /** Its key. */
  TUBEKIT_ANALYSIS_API_KEY: 'TUBEKIT_ANALYSIS_API_KEY',
  /** Seconds one request to it may take (default 300). */
  TUBEKIT_ANALYSIS_TIMEOUT: 'TUBEKIT_ANALYSIS_TIMEOUT',
  /** Sample world: the reference date of worlds generated without one (YYYY-MM-DD; default today). */
  TUBEKIT_WORLD_DATE: 'TUBEKIT_WORLD_DATE',
  /** The waits between webhook attempts of engines started here (`5s,5m,30m`; default about 3 days). */
  TUBEKIT_WEBHOOK_RETRY_SCHEDULE: 'TUBEKIT_WEBHOOK_RETRY_SCHEDULE',
  /** 1: engines started here take http:// webhook receivers on loopback (as serve --allow-loopback-webhooks). */
  TUBEKIT_ALLOW_LOOPBACK_WEBHOOKS: 'TUBEKIT_ALLOW_LOOPBACK_WEBHOOKS',
  /** `tubekit mcp`: only these toolsets (like --toolsets). */
  TUBEKIT_MCP_TOOLSETS: 'TUBEKIT_MCP_TOOLSETS',
  /** Any value turns colour off. */
  NO_COLOR: 'NO_COLOR',
} as const;

export const environmentHelp = `Environment:
  TUBEKIT_API_KEY       API key (never pass keys as flags)
  TUBEKIT_API_KEY_FILE  file holding the API key
  TUBEKIT_BASE_URL      service base URL; selects remote mode
  TUBEKIT_PROFILE       configuration profile (default "default")
  TUBEKIT_DATA_DIR      embedded engine data dir
  TUBEKIT_STORE         embedded engine state: postgres://user@host/db or sqlite:<file>
  TUBEKIT_FILES_DIR     embedded engine files (downloads, audio): a fleet's shared directory
  TUBEKIT_CONFIG_DIR    config file directory
  TUBEKIT_TIMEOUT       seconds one remote call may take, retries included
  TUBEKIT_PROXY         live platform: proxy URL (else HTTPS_PROXY)
  TUBEKIT_COOKIES       live platform: Netscape cookies file
  TUBEKIT_PLATFORM_RATE live platform: requests a second to each host (default 2)
  TUBEKIT_PLATFORM_ORIGIN  live platform: send requests to this origin instead
  TUBEKIT_YTDLP         live downloads: the yt-dlp to run (default: yt-dlp on PATH)
  TUBEKIT_MEDIA_MIN_RATE, _RATE_WINDOW  live downloads: bytes a second over seconds (default 8192, 30)
  TUBEKIT_WORLD_DATE    sample world: reference date of new worlds, YYYY-MM-DD (default today)
  TUBEKIT_ANALYSIS_PROVIDER  vision model for analysis: openai-compatible or gemini
  TUBEKIT_ANALYSIS_BASE_URL, _MODEL, _API_KEY, _TIMEOUT  its address, model, key, seconds
  TUBEKIT_WEBHOOK_RETRY_SCHEDULE  webhooks: waits between attempts, e.g. 5s,5m,30m,2h (default ~3 days)
  TUBEKIT_ALLOW_LOOPBACK_WEBHOOKS  1: webhooks may go to http:// receivers on loopback
  TUBEKIT_MCP_TOOLSETS  tubekit mcp: only these toolsets, comma-separated (like --toolsets)
  NO_COLOR              disable colour`;
