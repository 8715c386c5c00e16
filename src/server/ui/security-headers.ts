/** Headers on every dashboard answer: a strict CSP (no inline script or style, nothing from elsewhere) and no framing. */
import type { FastifyReply } from 'fastify';

export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "media-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

export function setSecurityHeaders(reply: FastifyReply): void {
  reply.header('content-security-policy', DASHBOARD_CSP);
  reply.header('x-content-type-options', 'nosniff');
  reply.header('x-frame-options', 'DENY');
  reply.header('referrer-policy', 'no-referrer');
  reply.header('cross-origin-opener-policy', 'same-origin');
  if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
}
