/** Upstream keys kept in a profile file: one rule for every provider that reads them there. */

/**
 * Why a key in `profile`'s file is not used, when group or others may read that file (the key may
 * already be out); undefined when the file is private. `whose` names the key ("ElevenLabs",
 * "vision model's"), `variable` the environment variable to use instead.
 */
export function exposedKeyFile(profile: { file?: string; mode?: number }, whose: string, variable: string): { problem: string; fix: string } | undefined {
  if (profile.mode === undefined || (profile.mode & 0o077) === 0) return undefined;
  const file = profile.file ?? 'the config file';
  return {
    problem: `The ${whose} key is in ${file}, which others may read (mode ${(profile.mode & 0o777).toString(8).padStart(4, '0')}); it is not used.`,
    fix: `Make the file private (chmod 600 ${file}) and consider replacing the key, or set ${variable} instead.`,
  };
}
