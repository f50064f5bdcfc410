import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, SubmitAppealBody } from '@rm/contracts';
import type { AccountStore, AppealStore, SanctionStore } from '@rm/storage';
import type { GatewayDeps } from '../deps.js';
import { PAGE_CSS, PAGE_ICON } from '../appeal-page/assets.js';
import { renderDecisionPage, renderMessagePage, type FormState, type PageContext } from '../appeal-page/render.js';
import { pageLanguage, type MessagePage } from '../appeal-page/strings.js';
import { orUnavailable } from '../errors/unavailable.js';
import { APPEAL_PAGE_PATH, openAppealLink, type AppealPageDeps } from '../use-cases/appeal-link.js';
import { appealPageView } from '../use-cases/appeal-page.js';
import { appealFiling, submitAppeal } from '../use-cases/submit-appeal.js';

/**
 * Nothing runs and nothing loads from elsewhere: no script at all, the stylesheet and icon from
 * this origin, and the form posts only here. The page is never framed.
 */
export const APPEAL_PAGE_CSP = ["default-src 'none'", "style-src 'self'", "img-src 'self'", "form-action 'self'", "base-uri 'none'", "frame-ancestors 'none'"].join('; ');

/** The status each message page answers with. */
const STATUS: Record<MessagePage, number> = { invalid: 403, expired: 403, crossSite: 403, badForm: 400, rateLimited: 429, off: 404, notFound: 404, unavailable: 500 };

type Deps = Pick<GatewayDeps, 'config' | 'logger' | 'guard' | 'sanctionsQueue'> & { store: SanctionStore & AppealStore & AccountStore; page: AppealPageDeps };

/** A form body: its fields by name, the first of a repeated one. */
function formFields(body: string): Record<string, string> {
  const fields = Object.create(null) as Record<string, string>;
  for (const [name, value] of new URLSearchParams(body)) if (!Object.hasOwn(fields, name)) fields[name] = value;
  return fields;
}

/**
 * A post from another site: the browser says so (Sec-Fetch-Site), or its Origin is not ours. A
 * browser that sends neither is let through: the token in the form is what a forger lacks.
 */
function crossSite(request: FastifyRequest, publicBaseUrl: string | undefined): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return true;
  const origin = request.headers.origin;
  if (origin === undefined) return false;
  const ours = [`${request.protocol}://${request.host}`];
  if (publicBaseUrl !== undefined) ours.push(new URL(publicBaseUrl).origin);
  return !ours.includes(origin);
}

/**
 * The player's appeal page (docs/appeals.md), outside the API key hook: the signed link is the
 * credential. GET shows the statement of reasons and the appeal's state or the form; POST files
 * the appeal through the same use case as POST /v1/appeals. Every answer is an HTML page, errors
 * too (never the API's JSON or a stack trace), hidden from the OpenAPI document.
 */
export function appealPageRoutes(deps: Deps): FastifyPluginAsync {
  const publicBaseUrl = deps.page.publicBaseUrl;
  const assetBase = `${publicBaseUrl === undefined ? '' : new URL(publicBaseUrl).pathname.replace(/\/+$/, '')}${APPEAL_PAGE_PATH}/assets`;
  const hide = { schema: { hide: true } } as const;
  const context = (request: FastifyRequest): PageContext => ({ language: pageLanguage((request.query as Record<string, unknown> | undefined)?.['lang'], request.headers['accept-language']), assetBase });
  const page = (reply: FastifyReply, ctx: PageContext, status: number, body: string) =>
    reply.status(status).header('content-type', 'text/html; charset=utf-8').header('content-language', ctx.language).header('vary', 'Accept-Language').send(body);
  const message = (reply: FastifyReply, ctx: PageContext, which: MessagePage, reference?: string) => {
    if (which === 'rateLimited') void reply.header('retry-after', '60');
    return page(reply, ctx, STATUS[which], renderMessagePage(ctx, which, reference));
  };
  /** Page requests per client address: what bounds trying tokens, or hammering the store. */
  const addressAdmitted = (request: FastifyRequest) => orUnavailable('Redis', () => deps.guard.withinRate(`appeal-page:${request.ip}`, deps.page.requestsPerMinute));
  /** Form posts per link, counted by its sanction: a new link from the game does not reset it. */
  const linkAdmitted = (sanctionId: string) => orUnavailable('Redis', () => deps.guard.withinRate(`appeal-link:${sanctionId}`, deps.page.submitsPerMinute));

  return async (app) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => done(null, formFields(body as string)));
    app.addHook('onSend', async (_request, reply) => {
      reply.header('content-security-policy', APPEAL_PAGE_CSP);
      reply.header('x-content-type-options', 'nosniff');
      // The token is in the address: it goes nowhere else (there is nowhere else to go, either).
      reply.header('referrer-policy', 'same-origin');
      reply.header('x-frame-options', 'DENY');
      reply.header('x-robots-tag', 'noindex, nofollow');
      if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    });
    app.setNotFoundHandler((request, reply) => message(reply, context(request), 'notFound'));
    app.setErrorHandler((error, request, reply) => {
      const ctx = context(request);
      const status = (error as { statusCode?: number }).statusCode;
      // What Fastify refused before us (a body too large or of another type, a bad URL): the form's fault.
      if (!(error instanceof AppError) && status !== undefined && status >= 400 && status < 500) return message(reply, ctx, status === 404 ? 'notFound' : 'badForm');
      const ref = randomUUID();
      const cause = error instanceof Error && error.cause !== undefined ? error.cause : error;
      request.log.error({ err: cause, ref, reqId: request.id }, `appeal page failed: ${(error as Error).message}`);
      return message(reply, ctx, 'unavailable', ref);
    });

    app.get('/assets/page.css', hide, async (_request, reply) => reply.header('content-type', 'text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').send(PAGE_CSS));
    app.get('/assets/icon.svg', hide, async (_request, reply) => reply.header('content-type', 'image/svg+xml').header('cache-control', 'public, max-age=86400').send(PAGE_ICON));

    app.get<{ Params: { token: string }; Querystring: Record<string, unknown> }>('/:token', hide, async (request, reply) => {
      const ctx = context(request);
      if (!(await addressAdmitted(request))) return message(reply, ctx, 'rateLimited');
      const link = await openAppealLink(deps, request.params.token);
      if (!link.ok) return message(reply, ctx, link.why);
      const view = await appealPageView({ store: deps.store, policy: deps.config.TRIAGE_POLICY }, link.sanction);
      const notice = request.query['sent'] === '1' && view.appeal !== null ? 'sent' : undefined;
      return page(reply, ctx, 200, renderDecisionPage(ctx, view, { token: request.params.token, notice }));
    });

    app.post<{ Params: { token: string } }>('/:token', hide, async (request, reply) => {
      const ctx = context(request);
      if (!(await addressAdmitted(request))) return message(reply, ctx, 'rateLimited');
      if (crossSite(request, publicBaseUrl)) return message(reply, ctx, 'crossSite');
      const { token } = request.params;
      const form = request.body as Record<string, string> | undefined;
      // The form carries the token too: it is what a page of another site cannot know.
      if (form?.['token'] !== token || typeof form['statement'] !== 'string') return message(reply, ctx, 'badForm');
      const link = await openAppealLink(deps, token);
      if (!link.ok) return message(reply, ctx, link.why);
      if (!(await linkAdmitted(link.claim.sanctionId))) return message(reply, ctx, 'rateLimited');

      const policy = deps.config.TRIAGE_POLICY;
      const shown = () => appealPageView({ store: deps.store, policy }, link.sanction);
      const view = await shown();
      // Appealed already (here or by the game), or no longer appealable: the page says so, nothing is sent.
      if (view.appeal !== null || view.refusal !== null) return page(reply, ctx, 400, renderDecisionPage(ctx, view, { token, notice: view.appeal !== null ? 'already' : undefined }));
      // Browsers send a textarea's line breaks as CRLF; the statement counts each as one character, as the API does.
      const statement = form['statement'].replace(/\r\n?/g, '\n');
      const body = SubmitAppealBody.safeParse({ sanctionId: link.claim.sanctionId, userId: link.claim.userId, statement });
      if (!body.success) {
        // The link's own fields are signed, so only the statement can be out of bounds.
        const issue = body.error.issues.find((i) => i.path[0] === 'statement');
        if (!issue) throw new Error(`an appeal link's fields were refused: ${body.error.message}`);
        const error: FormState['error'] = issue.code === 'too_small' ? 'empty' : 'tooLong';
        return page(reply, ctx, 400, renderDecisionPage(ctx, view, { token, form: { statement, error } }));
      }
      try {
        const filed = await submitAppeal(appealFiling(deps, policy, request.trace?.traceparent), body.data);
        if (!filed.created) return page(reply, ctx, 400, renderDecisionPage(ctx, await shown(), { token, notice: 'already' }));
      } catch (err) {
        // The sanction changed since it was read (lifted, expired, its window closed): the page shows why.
        if (err instanceof AppError && err.code === 'BAD_REQUEST') return page(reply, ctx, 400, renderDecisionPage(ctx, await shown(), { token }));
        if (err instanceof AppError && err.code === 'NOT_FOUND') return message(reply, ctx, 'invalid');
        throw err;
      }
      // After a post, a redirect: reloading the page shows the appeal, it does not send it again.
      return reply.redirect(`${token}?lang=${ctx.language}&sent=1`, 303);
    });
  };
}
