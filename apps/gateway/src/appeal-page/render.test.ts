import { describe, expect, it } from 'vitest';
import type { AppealRecord } from '@rm/storage';
import type { AppealPageView } from '../use-cases/appeal-page.js';
import { escapeHtml, html, Html } from '../http/html.js';
import { renderDecisionPage, renderMessagePage } from './render.js';

const XSS = `<script>alert("x")</script>' onmouseover='alert(1)`;
const ctx = { language: 'en' as const, assetBase: '/appeal/assets' };
const view = (over: Partial<AppealPageView> = {}): AppealPageView => ({
  decision: {
    kind: 'mute',
    label: `Muted ${XSS}`,
    builtInKind: null,
    state: 'active',
    endedAt: null,
    from: 0,
    until: null,
    stated: true,
    clause: `Clause ${XSS}`,
    law: `Law ${XSS}`,
    description: { en: `About ${XSS}`, de: `Über ${XSS}` },
    why: `Why ${XSS}`,
    origin: 'reports',
    automatedDetection: false,
    automatedDecision: 'not',
    appealUntil: 1,
  },
  appeal: null,
  refusal: null,
  dueAt: null,
  ...over,
});
const appeal = (over: Partial<AppealRecord>): AppealRecord => ({ statement: `Mine ${XSS}`, createdAt: 0, decidedAt: 1, decisionReason: `Reason ${XSS}`, state: 'upheld', ...over }) as AppealRecord;

/** The tags of a page: only the template's own, never one from a value. */
const tags = (page: string) => page.match(/<[a-z][^>]*>/gi)!;

describe('the html template', () => {
  it('escapes every interpolated value, in text and in attributes; only its own markup passes', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    expect(html`<p title="${XSS}">${XSS}${html`<b>${'<i>'}</b>`}${[1, null, false, undefined, 'x']}</p>`.text).toBe(
      `<p title="${escapeHtml(XSS)}">${escapeHtml(XSS)}<b>&lt;i&gt;</b>1x</p>`,
    );
    expect(html`${Html.raw('<br>')}`.text).toBe('<br>');
  });
});

describe('the pages', () => {
  it('no value of the store reaches the page as markup, in any state, in either language', () => {
    const pages = [
      renderDecisionPage(ctx, view(), { token: 't.s', form: { statement: XSS, error: 'tooLong' } }),
      renderDecisionPage({ ...ctx, language: 'de' }, view(), { token: 't.s' }),
      renderDecisionPage(ctx, view({ appeal: appeal({ state: 'open' }), dueAt: 5 }), { token: 't.s', notice: 'sent' }),
      renderDecisionPage(ctx, view({ appeal: appeal({ state: 'overturned' }) }), { token: 't.s', notice: 'already' }),
      renderDecisionPage(ctx, view({ refusal: { why: 'window_closed', startedAt: 0, closedAt: 1 } }), { token: 't.s' }),
      renderMessagePage(ctx, 'unavailable', XSS),
    ];
    for (const page of pages) {
      expect(page).not.toContain('<script');
      expect(tags(page).filter((t) => /\son\w+=|\sstyle=/i.test(t))).toEqual([]);
    }
    expect(pages[0]).toContain(`<textarea id="statement" name="statement" rows="10" aria-describedby="statement-hint statement-error" aria-invalid="true">${escapeHtml(XSS)}</textarea>`);
  });

  it('marks the policy’s English texts on a German page, and says built-in kinds in its words', () => {
    const de = renderDecisionPage({ ...ctx, language: 'de' }, view({ decision: { ...view().decision, description: { en: 'About', de: 'About' } } }), { token: 't.s' });
    expect(de).toContain('<span lang="en">Clause ');
    expect(de).toContain('<span lang="en">Muted ');
    expect(de).toContain('<span lang="en">About</span>');
    const ban = renderDecisionPage(ctx, view({ decision: { ...view().decision, kind: 'ban', builtInKind: 'ban', label: 'Banned (no login)' } }), { token: 't.s' });
    expect(ban).toContain('Banned: you cannot sign in to the game');
  });
});
