import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { CaseView } from './case-view.js';
import { approvalDmText, caseMessageText, CHAT_MESSAGE_LIMIT, dismissalDmText, slaEscalationText } from './chat-text.js';
import { signBody } from './decision-webhook.js';
import { parseRetryAfter, urlOf } from './http.js';

describe('parseRetryAfter', () => {
  it('reads seconds, fractional ones too', () => {
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter('0.25')).toBe(250);
    expect(parseRetryAfter('0')).toBe(0);
  });

  it('reads an HTTP date as the time left until then', () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    expect(parseRetryAfter('Tue, 01 Jan 2030 00:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Mon, 31 Dec 2029 23:59:00 GMT', now)).toBe(0);
  });

  it('falls back to one second when missing or unreadable', () => {
    expect(parseRetryAfter(null)).toBe(1000);
    expect(parseRetryAfter('')).toBe(1000);
    expect(parseRetryAfter('soon')).toBe(1000);
  });
});

describe('urlOf', () => {
  it('joins a base with or without a trailing slash and escapes each segment', () => {
    expect(urlOf('https://chat.example/api/', 'channels', 'a/b c', 'messages')).toBe('https://chat.example/api/channels/a%2Fb%20c/messages');
    expect(urlOf('https://dir.example', 'users', '42')).toBe('https://dir.example/users/42');
  });
});

describe('signBody', () => {
  it('is sha256= and the hex HMAC-SHA256 of the raw body', () => {
    const raw = '{"event":"approved"}';
    expect(signBody('secret', raw)).toBe(`sha256=${createHmac('sha256', 'secret').update(raw).digest('hex')}`);
    expect(signBody('secret', raw)).not.toBe(signBody('other', raw));
  });
});

describe('chat text', () => {
  const view: CaseView = { caseId: 'c1', userId: '42', userName: 'griefer', state: 'claimed', moderatorName: 'alice', reportIds: ['r1', 'r2'] };

  it('names the player, the state and the reports', () => {
    expect(caseMessageText(view, false)).toBe('Case: 2 report(s) about griefer (42)\nStatus: claimed by alice\nReports: r1, r2');
    expect(caseMessageText({ ...view, state: 'approved' }, false, 'Case reopened')).toMatch(/^Case reopened: .*\nStatus: approved by alice: user banned/);
  });

  it("lists a big case's reports as far as the platform's 2,000 characters allow, then says how many more", () => {
    const ids = Array.from({ length: 10_000 }, (_, i) => `01a2${String(i).padStart(4, '0')}-0000-7000-8000-000000000000`);
    const text = caseMessageText({ ...view, reportIds: ids }, false);
    expect(text.length).toBeLessThanOrEqual(CHAT_MESSAGE_LIMIT);
    expect(text).toMatch(/^Case: 10000 report\(s\) about griefer \(42\)\nStatus: claimed by alice\nReports: /);
    const [, shown, more] = /\nReports: (.*) … and (\d+) more in the console$/.exec(text)!;
    const listed = shown!.split(', ');
    expect(listed).toEqual(ids.slice(0, listed.length));
    expect(listed.length + Number(more)).toBe(10_000);
    // Nearly full: another id (38 characters with its comma) would not have fitted.
    expect(text.length).toBeGreaterThan(CHAT_MESSAGE_LIMIT - 40);
    // A player's name of any length still makes a message the platform takes.
    expect(caseMessageText({ ...view, userName: 'x'.repeat(5000) }, false).length).toBe(CHAT_MESSAGE_LIMIT);
  });

  it("an SLA escalation lists the case's reports within the same bound", () => {
    expect(slaEscalationText('c1', '42', 'cheating', 3_600_000, ['r1', 'r2'])).toBe(
      'SLA breached: case c1 about user 42 has waited unclaimed longer than 3600 s (category cheating)\nReports: r1, r2',
    );
    const ids = Array.from({ length: 500 }, (_, i) => `report-${i}`);
    const text = slaEscalationText('c1', '42', 'cheating', 3_600_000, ids);
    expect(text.length).toBeLessThanOrEqual(CHAT_MESSAGE_LIMIT);
    expect(text).toMatch(/\nReports: report-0, report-1, .* … and \d+ more in the console$/);
  });

  it('leaves the name out when hideUsername is set', () => {
    const text = caseMessageText(view, true);
    expect(text).toContain('about user 42');
    expect(text).not.toContain('griefer');
  });

  it('says when the case is a suspected brigade or was escalated, and nothing when not flagged', () => {
    const text = caseMessageText({ ...view, flags: ['escalated', 'suspected_brigade'] }, false);
    expect(text).toMatch(/\nWarning: suspected brigade .*automatic rules will not act on it/);
    expect(text).toContain('\nEscalated by an automatic triage rule\n');
    expect(caseMessageText({ ...view, flags: [] }, false)).toBe(caseMessageText(view, false));
  });

  it('DMs the reason when there is one', () => {
    expect(dismissalDmText('no evidence')).toBe('Your report was reviewed and dismissed: no evidence');
    expect(dismissalDmText(undefined)).toBe('Your report was reviewed and dismissed.');
    // A reason of any length still makes a DM the platform takes.
    const long = dismissalDmText('r'.repeat(10_000));
    expect(long.length).toBe(CHAT_MESSAGE_LIMIT);
    expect(long).toMatch(/^Your report was reviewed and dismissed: r+…$/);
  });

  it('tells of an approval that action was taken, and nothing of the sanction', () => {
    expect(approvalDmText()).toBe('Your report was reviewed and action was taken against the reported player. Thank you for reporting.');
  });
});
