/** The stable fields of an InnerTube request body, which identify what it asks (fixtures key on them too). */
export const STABLE_FIELDS = ['browseId', 'params', 'continuation', 'videoId', 'url'] as const;

export function stableFields(body: string | undefined): Record<string, unknown> {
  if (!body || body[0] !== '{') return {};
  try {
    const parsed = JSON.parse(body) as Record<string, unknown>;
    const fields: Record<string, unknown> = {};
    for (const key of STABLE_FIELDS) if (typeof parsed[key] === 'string') fields[key] = parsed[key];
    return fields;
  } catch {
    return {};
  }
}
