import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

// Accessibility checks with axe-core itself (not @axe-core/playwright, whose current line needs
// Node 22). axe's source is evaluated through the DevTools protocol, which a page's CSP does not
// govern: the page is checked exactly as served, no `bypassCSP` needed. Usage, for any page:
//   await expectNoSeriousViolations(page, 'the appeal form');

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The rules of WCAG 2.0, 2.1 and 2.2 at levels A and AA. */
export const WCAG_22_AA_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] as const;

export interface AxeFinding {
  id: string;
  impact: string | null;
  help: string;
  /** Each offending element: its selector and axe's summary of what to fix. */
  nodes: { target: string; summary: string }[];
}

/** Runs axe on the page as it is now; its violations of `tags` whose impact is serious or critical. */
export async function seriousViolations(page: Page, tags: readonly string[] = WCAG_22_AA_TAGS): Promise<AxeFinding[]> {
  // A click's navigation is awaited only until it commits: the page is checked once its stylesheet
  // applies (an unstyled page fails target-size, for one).
  await page.waitForLoadState('load');
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const found = await page.evaluate(async (values) => {
    type Result = { violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[]; failureSummary?: string }[] }[] };
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<Result> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values }, resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target.join(' '), summary: n.failureSummary ?? '' })) }));
  }, tags);
  return found.filter((f) => f.impact === 'serious' || f.impact === 'critical');
}

/** Fails the test, naming `label`, each rule and each element, when axe finds a serious or critical WCAG 2.2 AA violation. */
export async function expectNoSeriousViolations(page: Page, label: string): Promise<void> {
  const found = await seriousViolations(page);
  const described = found.map((f) => `${f.id} (${f.impact}): ${f.help}\n${f.nodes.map((n) => `  ${n.target}: ${n.summary}`).join('\n')}`).join('\n');
  expect(found, `axe on ${label}:\n${described}`).toEqual([]);
}
