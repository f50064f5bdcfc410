import { APPEAL_LIMITS } from '@rm/contracts';
import type { AppealRecord } from '@rm/storage';
import type { AppealPageView, DecisionFacts } from '../use-cases/appeal-page.js';
import type { AppealRefusal } from '../use-cases/submit-appeal.js';
import { html, type Html } from '../http/html.js';
import { formatCount, formatTime, LANGUAGE_NAMES, LANGUAGES, STRINGS, type Language, type MessagePage, type Strings } from './strings.js';

/** Where the page's stylesheet and icon are served: `${base}/page.css` (PUBLIC_BASE_URL's path, then /appeal/assets). */
export interface PageContext {
  language: Language;
  assetBase: string;
}

/** What the form says after a post that was not taken: the text back, and why. */
export interface FormState {
  statement: string;
  error: 'empty' | 'tooLong' | null;
}

export interface DecisionPageOptions {
  /** The link's token: the form posts it back (the capability) to the link's own URL. */
  token: string;
  /** `sent`: the appeal just went in (after the redirect); `already`: a post found the sanction appealed. */
  notice?: 'sent' | 'already' | undefined;
  form?: FormState | undefined;
}

function layout(ctx: PageContext, title: string, main: Html): string {
  const t = STRINGS[ctx.language];
  const switcher = LANGUAGES.map(
    (l) => html`<li><a href="?lang=${l}" hreflang="${l}" lang="${l}"${l === ctx.language ? html` aria-current="true"` : ''}>${LANGUAGE_NAMES[l]}</a></li>`,
  );
  return html`<!doctype html>
<html lang="${ctx.language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${title} – ${t.site}</title>
<link rel="stylesheet" href="${ctx.assetBase}/page.css">
<link rel="icon" href="${ctx.assetBase}/icon.svg" type="image/svg+xml">
</head>
<body>
<div class="page">
<header>
<p class="site">${t.site}</p>
<nav aria-label="${t.languageNav}"><ul>${switcher}</ul></nav>
</header>
<main id="main">
${main}
</main>
<footer><p>${t.footer}</p></footer>
</div>
</body>
</html>
`.text;
}

const time = (language: Language, ms: number) => html`<time datetime="${new Date(ms).toISOString()}">${formatTime(language, ms)}</time>`;
const when = (language: Language, ms: number | null) => (ms === null ? null : formatTime(language, ms));

function restrictionText(t: Strings, language: Language, d: DecisionFacts): Html | string {
  return d.builtInKind !== null ? t.kinds[d.builtInKind] : policyText(language, d.label);
}

function statusText(t: Strings, language: Language, d: DecisionFacts): string {
  switch (d.state) {
    case 'active':
      return t.status.active;
    case 'scheduled':
      return t.status.scheduled;
    case 'lifted':
      return t.status.lifted(when(language, d.endedAt));
    case 'expired':
      return t.status.expired(when(language, d.endedAt));
  }
}

const row = (label: string, value: Html | string) => html`<div><dt>${label}</dt><dd>${value}</dd></div>`;

/** A text of the policy in English (its default language) on a page in another: marked so (WCAG 3.1.2). */
const policyText = (language: Language, text: string) => (language === 'en' ? text : html`<span lang="en">${text}</span>`);

function decisionSection(t: Strings, language: Language, d: DecisionFacts): Html {
  const source = d.origin === null ? null : [d.origin === 'reports' ? t.source.reports : t.source.ownInitiative, d.automatedDetection ? t.source.detectedAutomatically : null].filter((s) => s !== null).join(' ');
  const rows = [
    row(t.labels.restriction, restrictionText(t, language, d)),
    row(t.labels.status, statusText(t, language, d)),
    row(t.labels.from, time(language, d.from)),
    row(t.labels.until, d.until === null ? t.permanent : time(language, d.until)),
    d.clause !== null && row(t.labels.rule, policyText(language, d.clause)),
    d.law !== null && row(t.labels.law, d.law),
    d.description !== null && row(t.labels.description, d.description[language] === d.description.en ? policyText(language, d.description.en) : d.description[language]),
    d.why !== null && row(t.labels.why, html`<span class="text">${d.why}</span>`),
    source !== null && row(t.labels.source, source),
    row(t.labels.decidedBy, t.decidedBy[d.automatedDecision]),
    row(t.labels.appealUntil, time(language, d.appealUntil)),
  ];
  return html`<section aria-labelledby="decision-heading">
<h2 id="decision-heading">${t.decisionHeading}</h2>
<dl class="facts">${rows}</dl>
${d.stated ? '' : html`<p>${t.noStatement}</p>`}
</section>`;
}

function formSection(t: Strings, language: Language, token: string, form: FormState | undefined): Html {
  const max = formatCount(language, APPEAL_LIMITS.statement.max);
  const error = form?.error ?? null;
  const message = error === 'empty' ? t.errors.empty : error === 'tooLong' ? t.errors.tooLong(formatCount(language, form!.statement.length), max) : null;
  return html`${
    message === null
      ? ''
      : html`<div class="error-summary" role="alert" aria-labelledby="error-summary-heading">
<h3 id="error-summary-heading">${t.errorSummary}</h3>
<ul><li><a href="#statement">${message}</a></li></ul>
</div>`
  }
<p>${t.formIntro}</p>
<form method="post" action="${token}?lang=${language}#appeal" novalidate>
<input type="hidden" name="token" value="${token}">
<div class="field${message === null ? '' : ' field-invalid'}">
<label for="statement">${t.formLabel}</label>
<p class="hint" id="statement-hint">${t.formHint(max)}</p>
${message === null ? '' : html`<p class="field-error" id="statement-error"><span class="visually-hidden">${t.errorTitlePrefix}</span>${message}</p>`}
<textarea id="statement" name="statement" rows="10" aria-describedby="statement-hint${message === null ? '' : ' statement-error'}"${message === null ? '' : html` aria-invalid="true"`}>${form?.statement ?? ''}</textarea>
</div>
<button type="submit">${t.submit}</button>
</form>
<p>${t.otherRedress}</p>`;
}

function closedSection(t: Strings, language: Language, refusal: AppealRefusal): Html {
  const why =
    refusal.why === 'window_closed'
      ? t.closed.window_closed(formatTime(language, refusal.closedAt))
      : refusal.why === 'lifted'
        ? t.closed.lifted(when(language, refusal.at))
        : refusal.why === 'expired'
          ? t.closed.expired(when(language, refusal.at))
          : t.closed.scheduled;
  return html`<h3>${t.closedHeading}</h3>
<p>${why}</p>
<p>${t.otherRedress}</p>`;
}

function appealState(t: Strings, language: Language, appeal: AppealRecord, dueAt: number): Html {
  const yours = html`<h4>${t.yourText}</h4>
<blockquote class="text">${appeal.statement}</blockquote>`;
  if (appeal.state === 'open' || appeal.state === 'claimed') {
    return html`<h3>${t.pendingHeading}</h3>
<p>${t.pendingSent(formatTime(language, appeal.createdAt))} ${t.pendingReview}</p>
<p>${t.pendingDue(formatTime(language, dueAt))}</p>
${yours}
<p>${t.otherRedress}</p>`;
  }
  const upheld = appeal.state === 'upheld';
  return html`<div class="outcome ${upheld ? 'outcome-upheld' : 'outcome-overturned'}">
<h3>${upheld ? t.upheldHeading : t.overturnedHeading}</h3>
<p>${appeal.decidedAt === null ? '' : t.decidedOn(formatTime(language, appeal.decidedAt))}</p>
${appeal.decisionReason === null ? '' : html`<h4>${t.reason}</h4><blockquote class="text">${appeal.decisionReason}</blockquote>`}
</div>
<p>${t.finalWord}</p>
${yours}`;
}

/** The page of a valid link: the decision, then the appeal's state, the form, or why there is none. */
export function renderDecisionPage(ctx: PageContext, view: AppealPageView, options: DecisionPageOptions): string {
  const t = STRINGS[ctx.language];
  const { language } = ctx;
  const appeal =
    view.appeal !== null
      ? appealState(t, language, view.appeal, view.dueAt!)
      : view.refusal !== null
        ? closedSection(t, language, view.refusal)
        : formSection(t, language, options.token, options.form);
  const notice =
    options.notice === 'sent'
      ? html`<p class="notice notice-ok" role="status">${t.sent}</p>`
      : options.notice === 'already'
        ? html`<p class="notice notice-warn" role="alert">${t.alreadyAppealed}</p>`
        : '';
  // The form posts to #appeal: the answer (an error, the appeal sent) opens at this section.
  const main = html`<h1>${t.title}</h1>
<p class="lede">${t.intro}</p>
${decisionSection(t, language, view.decision)}
<section id="appeal" aria-labelledby="appeal-heading">
<h2 id="appeal-heading">${t.appealHeading}</h2>
${notice}
${appeal}
</section>`;
  const failed = options.form?.error != null;
  return layout(ctx, `${failed ? t.errorTitlePrefix : ''}${t.title}`, main);
}

/** A page that stands in for the decision: a bad or expired link, a refused post, a limit, an error. */
export function renderMessagePage(ctx: PageContext, which: MessagePage, reference?: string): string {
  const t = STRINGS[ctx.language];
  const m = t.messages[which];
  const main = html`<h1>${m.title}</h1>
<p>${m.body}</p>
${reference === undefined ? '' : html`<p>${t.reference(reference)}</p>`}`;
  return layout(ctx, m.title, main);
}
