/**
 * The default world's parameters. A module of its own, importing nothing, so the engine and the
 * CLI can name the defaults without loading the generator (see generate.ts).
 */
export const DEFAULT_WORLD_SEED = 'tubekit';
export const DEFAULT_WORLD_CHANNELS = 3000;
/** Terminated channels of a default world: enough that everyday keywords find some, quick to generate. */
export const DEFAULT_WORLD_TERMINATED = 10_000;
