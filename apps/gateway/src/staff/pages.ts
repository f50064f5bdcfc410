import type { FastifyReply } from 'fastify';
import { html } from '../http/html.js';

/** Nothing on these pages loads or runs anything: plain text and one link. */
const PAGE_CSP = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * A page a person lands on when sign-in cannot go on (the browser came here from the provider, so
 * an API error body would be no use to them): what happened, in words, and the way back.
 */
export function signInPage(reply: FastifyReply, status: number, title: string, paragraphs: readonly string[]): FastifyReply {
  const page = html`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title} · Moderator console</title></head>
<body>
<main>
<h1>${title}</h1>
${paragraphs.map((p) => html`<p>${p}</p>
`)}<p><a href="/console/">Back to the moderator console</a></p>
</main>
</body>
</html>
`;
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-security-policy', PAGE_CSP)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', 'no-store')
    .send(page.text);
}
