import type { FastifyReply, FastifyRequest } from 'fastify';

/** The staff session's cookie: its value stands for a session held in Redis, nothing more. */
export const SESSION_COOKIE = 'rm_session';
/** A sign-in under way in this browser: the callback must come back to the browser that began it. */
export const SIGN_IN_COOKIE = 'rm_signin';

/** One cookie's value from the request's Cookie header. */
export function cookieOf(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

/**
 * Sets a cookie scripts cannot read (`HttpOnly`), sent with top-level navigations from elsewhere
 * (`SameSite=Lax`: the provider's redirect back must carry it) but not with cross-site requests,
 * and `Secure` when the request came over TLS (as the trusted proxy says, behind one).
 */
export function setCookie(request: FastifyRequest, reply: FastifyReply, name: string, value: string, options: { path: string; maxAgeMs?: number }): void {
  const parts = [`${name}=${value}`, `Path=${options.path}`, 'HttpOnly', 'SameSite=Lax'];
  if (options.maxAgeMs !== undefined) parts.push(`Max-Age=${Math.max(0, Math.floor(options.maxAgeMs / 1000))}`);
  if (request.protocol === 'https') parts.push('Secure');
  reply.header('set-cookie', [...[reply.getHeader('set-cookie') ?? []].flat().map(String), parts.join('; ')]);
}

export function clearCookie(request: FastifyRequest, reply: FastifyReply, name: string, path: string): void {
  setCookie(request, reply, name, '', { path, maxAgeMs: 0 });
}
