import type { FastifyRequest } from 'fastify';

/**
 * The key of a request: `Authorization: Bearer <key>` (recommended), `?api_key=`, or an
 * `api_key` multipart field, as the hosted service accepts.
 */
export function requestApiKey(request: FastifyRequest, formApiKey?: string): string | undefined {
  const header = request.headers.authorization;
  if (header) {
    const match = /^Bearer\s+(.+)$/i.exec(header.trim());
    if (match) return match[1]!.trim();
  }
  const query = request.query as Record<string, unknown> | undefined;
  if (typeof query?.api_key === 'string' && query.api_key) return query.api_key;
  return formApiKey || undefined;
}
