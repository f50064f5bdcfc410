import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './harness.js';

/** The HTTP contract, read from the shared spec so that the tests follow it, not a copy of it. */
export const SPEC_PATH = join(ROOT, '..', 'shared', 'spec', 'report-moderation-api.md');

export interface SpecTable {
  /** Field name → the rest of its row (type, required, constraints). */
  rows: Map<string, string[]>;
}

export class Spec {
  private readonly text: string;

  constructor(path = SPEC_PATH) {
    this.text = readFileSync(path, 'utf8');
  }

  /** Method and path of every endpoint, from the `### 4.N METHOD /path` headings. */
  endpoints(): { method: string; path: string; section: string }[] {
    return [...this.text.matchAll(/^### (4\.\d+) (GET|POST|PUT|PATCH|DELETE) (\S+)/gm)].map((m) => ({ section: m[1]!, method: m[2]!, path: m[3]! }));
  }

  /** The text of a section, from its heading to the next heading of the same or a higher level. */
  section(number: string): string {
    const start = this.text.search(new RegExp(`^#{2,3} ${number.replace('.', '\\.')}[ .]`, 'm'));
    if (start < 0) throw new Error(`spec has no section ${number}`);
    const rest = this.text.slice(this.text.indexOf('\n', start) + 1);
    const end = rest.search(/^#{2,3} /m);
    return end < 0 ? rest : rest.slice(0, end);
  }

  /**
   * The tables of a section, in order. `after` picks the first table following a line that
   * contains that text (e.g. 'answer:' or 'Response 200').
   */
  table(sectionNumber: string, after?: string): SpecTable {
    let body = this.section(sectionNumber);
    if (after !== undefined) {
      const at = body.indexOf(after);
      if (at < 0) throw new Error(`section ${sectionNumber} has no "${after}"`);
      body = body.slice(at);
    }
    const lines = body.split('\n');
    const first = lines.findIndex((l) => l.startsWith('| Field'));
    const rows = new Map<string, string[]>();
    for (const line of lines.slice(first + 2)) {
      if (!line.startsWith('|')) break;
      const cells = line.split('|').slice(1, -1).map((c) => c.trim());
      rows.set(cells[0]!, cells.slice(1));
    }
    return { rows };
  }
}

/** `Allowed values: `a`, `b`` → ['a', 'b']. */
export function allowedValues(constraint: string): string[] | undefined {
  const m = /Allowed values: (.*)/.exec(constraint);
  return m ? [...m[1]!.matchAll(/`([^`]+)`/g)].map((v) => v[1]!) : undefined;
}

/** `1 to 5 items` / `length 1 to 500` → [1, 5]. */
export function range(constraint: string): [number, number] | undefined {
  const m = /(\d+) to (\d+)/.exec(constraint);
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}
