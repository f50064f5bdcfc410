import { describe, expect, it } from 'vitest';
import { StatementOfReasons } from '@rm/contracts';
import { assembleStatement, publicDescriptionOf, STATEMENT_MAX_EVIDENCE, statedDescriptionIn } from './statement.js';
import { DEFAULT_POLICY, TriagePolicy } from './policy.js';

const DAY = 86_400_000;
const base = {
  category: 'harassment',
  kind: 'chat',
  from: Date.UTC(2026, 0, 10),
  until: Date.UTC(2026, 0, 17),
  reason: 'Slurs in voice chat',
  origin: 'reports' as const,
  reports: { count: 3, firstAt: 1, lastAt: 2 },
  evidence: [{ url: 'https://clips.example/1', sha256: 'a'.repeat(64) }],
  automatedDetection: false,
  automatedDecision: 'not' as const,
  issuedAt: Date.UTC(2026, 0, 10),
};

describe('assembleStatement', () => {
  it("grounds a sanction on the category's clause, with the facts, the restriction, the automation and the appeal's end", () => {
    const s = assembleStatement(DEFAULT_POLICY, base);
    expect(StatementOfReasons.parse(s)).toEqual(s);
    expect(s.ground).toEqual({ type: 'terms', clause: DEFAULT_POLICY.categories.harassment!.clause, law: null, explanation: 'Slurs in voice chat' });
    expect(s.facts).toMatchObject({ category: 'harassment', transparencyCategory: 'CYBER_VIOLENCE', reports: base.reports, reason: 'Slurs in voice chat' });
    expect(s.restriction).toEqual({ kind: 'chat', label: 'No text or voice chat', blocksLogin: false, from: base.from, until: base.until });
    expect(s.redress.appealUntil).toBe(base.from + 180 * DAY);
    expect(s.redress.howToAppeal).toContain('until 2026-07-09 (UTC)');
  });

  it('an illegal ground names the law; the explanation falls back to the reason, then the public description', () => {
    const illegal = assembleStatement(DEFAULT_POLICY, { ...base, illegalContent: { law: '§ 130 StGB' } });
    expect(illegal.ground).toMatchObject({ type: 'illegal', law: '§ 130 StGB', explanation: 'Slurs in voice chat' });
    expect(assembleStatement(DEFAULT_POLICY, { ...base, illegalContent: { law: 'L', explanation: 'Why' } }).ground.explanation).toBe('Why');
    expect(assembleStatement(DEFAULT_POLICY, { ...base, reason: null }).ground.explanation).toBe(DEFAULT_POLICY.categories.harassment!.publicDescription);
  });

  it("takes the policy's appeal window, the default category's clause for a category it no longer has, and cites each URL once, at most 50", () => {
    const policy = TriagePolicy.parse({ ...DEFAULT_POLICY, appeals: { window: 'P1Y', sla: 'P7D' } });
    expect(assembleStatement(policy, base).redress.appealUntil).toBe(base.from + 365 * DAY);
    expect(assembleStatement(policy, { ...base, category: 'gone' }).ground.clause).toBe(DEFAULT_POLICY.categories.other!.clause);
    const many = Array.from({ length: 80 }, (_, i) => ({ url: `https://clips.example/${i % 60}`, sha256: null }));
    const cited = assembleStatement(policy, { ...base, evidence: many }).facts.evidence;
    expect(cited).toHaveLength(STATEMENT_MAX_EVIDENCE);
    expect(new Set(cited.map((e) => e.url)).size).toBe(STATEMENT_MAX_EVIDENCE);
  });
});

describe('public descriptions by language', () => {
  const texts = { en: 'Harassment of other players', de: 'Belästigung anderer Spieler', 'pt-BR': 'Assédio a outros jogadores' };
  const policy = TriagePolicy.parse({ ...DEFAULT_POLICY, categories: { ...DEFAULT_POLICY.categories, harassment: { ...DEFAULT_POLICY.categories.harassment!, publicDescription: texts } } });

  it('a statement stores the English text; a language is found by its tag or its primary subtag, else English, else the clause', () => {
    expect(assembleStatement(policy, base).facts.publicDescription).toBe(texts.en);
    const category = policy.categories['harassment']!;
    expect(publicDescriptionOf(category, 'de')).toBe(texts.de);
    expect(publicDescriptionOf(category, 'de-AT')).toBe(texts.de);
    expect(publicDescriptionOf(category, 'pt')).toBe(texts['pt-BR']);
    expect(publicDescriptionOf(category, 'fr')).toBe(texts.en);
    expect(publicDescriptionOf({ clause: 'The clause' })).toBe('The clause');
    expect(publicDescriptionOf({ clause: 'c', publicDescription: 'One text' }, 'de')).toBe('One text');
  });

  it("translates what the statement stored, never a description the policy gave since", () => {
    const stated = assembleStatement(policy, base).facts;
    expect(statedDescriptionIn(policy, stated, 'de')).toBe(texts.de);
    expect(statedDescriptionIn(policy, { ...stated, publicDescription: 'An older text' }, 'de')).toBe('An older text');
    expect(statedDescriptionIn(policy, { ...stated, category: 'gone' }, 'de')).toBe(stated.publicDescription);
  });
});
