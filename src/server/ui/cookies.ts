/** The dashboard's cookies: read from the Cookie header, written HttpOnly and SameSite=Strict. */
import type { FastifyReply, FastifyRequest } from 'fastify';

export const SESSION_COOKIE = 'tubekit_session';
/** Holds the sign-in form's CSRF token until a session exists (double submit). */
export const SIGN_IN_COOKIE = 'tubekit_sign_in';

export function readCookie(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

/** Whether the connection came in on a loopback address: only there may a cookie go without Secure. */
export function onLoopback(request: FastifyRequest): boolean {
  const local = request.raw.socket.localAddress ?? '';
  return local === '::1' || local.startsWith('127.') || local.startsWith('::ffff:127.');
}

/** Sets a cookie for the whole site; `maxAgeSeconds` 0 deletes it. */
export function setCookie(request: FastifyRequest, reply: FastifyReply, name: string, value: string, maxAgeSeconds: number): void {
  const parts = [`${name}=${value}`, 'Path=/', 'HttpOnly', 'SameSite=Strict', `Max-Age=${maxAgeSeconds}`];
  if (!onLoopback(request)) parts.push('Secure');
  const previous = reply.getHeader('set-cookie');
  const list = previous === undefined ? [] : Array.isArray(previous) ? previous.map(String) : [String(previous)];
  reply.header('set-cookie', [...list, parts.join('; ')]);
}
