import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// Every relative link in README.md and docs/*.md lands on a file that exists, and every `#anchor`
// on a heading of the file it names, by GitHub's rules for heading ids. No server, no network.
const ROOT = resolve(import.meta.dirname, '../../..');
const pages = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** The text without fenced code blocks (their lines blanked, so line numbers stay right). */
function withoutFences(text: string): string {
  let fence: string | null = null;
  return text
    .split('\n')
    .map((line) => {
      const m = /^\s*(`{3,}|~{3,})/.exec(line);
      if (m) {
        if (fence === null) fence = m[1]!;
        else if (m[1]!.startsWith(fence)) fence = null;
        return '';
      }
      return fence === null ? line : '';
    })
    .join('\n');
}

/** GitHub's id for a heading's text (github-slugger): lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // links and images: their text
    .replace(/<[^>]+>/g, '') // inline HTML tags
    .replace(/[`*]/g, '');
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The ids a page's headings get, duplicates numbered as GitHub numbers them, plus explicit `<a id>` / `<a name>`. */
function anchorsOf(path: string): Set<string> {
  const text = withoutFences(readFileSync(path, 'utf8'));
  const seen = new Map<string, number>();
  const ids = new Set<string>();
  for (const m of text.matchAll(/^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$/gm)) {
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    ids.add(n === 0 ? base : `${base}-${n}`);
  }
  for (const m of text.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) ids.add(m[1]!);
  return ids;
}

interface Link {
  page: string;
  line: number;
  target: string;
}

function linksOf(page: string): Link[] {
  const lines = withoutFences(readFileSync(join(ROOT, page), 'utf8')).split('\n');
  const links: Link[] = [];
  lines.forEach((raw, i) => {
    // Code spans that look like links are code, not links.
    const line = raw.replace(/`[^`]*\]\([^`]*`/g, '');
    for (const m of line.matchAll(/\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) links.push({ page, line: i + 1, target: m[1]! });
    for (const m of line.matchAll(/^\s*\[[^\]]+\]:\s+<?(\S+?)>?(?:\s|$)/g)) links.push({ page, line: i + 1, target: m[1]! });
  });
  return links;
}

/** Why a link does not land, or null when it does. */
function brokenBecause(link: Link): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(link.target)) return null; // https:, mailto: ...: not ours to check
  const hash = link.target.indexOf('#');
  const pathPart = decodeURIComponent(hash === -1 ? link.target : link.target.slice(0, hash));
  const anchor = hash === -1 ? null : decodeURIComponent(link.target.slice(hash + 1));
  const file = pathPart === '' ? join(ROOT, link.page) : resolve(dirname(join(ROOT, link.page)), pathPart);
  if (relative(ROOT, file).startsWith('..')) return 'points outside the repository';
  if (!existsSync(file)) return `no file ${relative(ROOT, file)}`;
  if (anchor === null || anchor === '') return null;
  if (!file.endsWith('.md')) return null;
  return anchorsOf(file).has(anchor) ? null : `no heading #${anchor} in ${relative(ROOT, file)}`;
}

describe('links in README.md and docs/*.md', () => {
  const links = pages.flatMap(linksOf);

  it('finds the links (the parser reads the pages)', () => {
    expect(pages.length).toBeGreaterThan(10);
    expect(links.length).toBeGreaterThan(50);
    expect(links.some((l) => l.target.includes('#'))).toBe(true);
  });

  it('every relative link names an existing file, and every #anchor a heading of it', () => {
    const broken = links.flatMap((l) => {
      const why = brokenBecause(l);
      return why ? [`${l.page}:${l.line} (${l.target}): ${why}`] : [];
    });
    expect(broken).toEqual([]);
  });

  it("computes GitHub's heading ids", () => {
    expect(slug('Durable commits: `synchronous = FULL` (23 Nov, intake reliability)')).toBe('durable-commits-synchronous--full-23-nov-intake-reliability');
    expect(slug('Chat platform, user directory, decision webhook')).toBe('chat-platform-user-directory-decision-webhook');
    expect(slug('MongoDB intake: one transaction per batch (25 Nov, issue 33) — reasoned, not measured')).toBe(
      'mongodb-intake-one-transaction-per-batch-25-nov-issue-33--reasoned-not-measured',
    );
    expect(slug('`KEY_PREFIX` and [Redis](redis.md)')).toBe('key_prefix-and-redis');
  });
});
