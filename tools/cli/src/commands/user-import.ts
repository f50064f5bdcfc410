import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import cliProgress from 'cli-progress';
import { DuplicateError, type AccountStore, type UserRecord } from '@rm/storage';
import { CliError } from '../context.js';

export const isNumericUserId = (id: string) => /^\d+$/.test(id) && Number.isSafeInteger(Number(id));

interface Row {
  line: number;
  user: UserRecord;
}

/** Splits one CSV line, honouring double quotes ("a, b" and "" inside quotes). */
function splitCsvLine(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      cells.push(cell);
      cell = '';
    } else cell += ch;
  }
  cells.push(cell);
  return cells.map((c) => c.trim());
}

function fromCsv(text: string): Row[] {
  const lines = text.split(/\r?\n/);
  const header = splitCsvLine(lines[0] ?? '');
  const col = (name: string) => header.indexOf(name);
  for (const required of ['id', 'name', 'displayName']) {
    if (col(required) < 0) throw new CliError(`CSV header must name the columns id,name,displayName[,avatar] (missing ${required})`);
  }
  const rows: Row[] = [];
  lines.slice(1).forEach((line, i) => {
    if (line.trim() === '') return;
    const cells = splitCsvLine(line);
    const avatar = col('avatar') >= 0 ? cells[col('avatar')] : undefined;
    rows.push({
      line: i + 2,
      user: { id: cells[col('id')] ?? '', name: cells[col('name')] ?? '', displayName: cells[col('displayName')] ?? '', avatar: avatar ? avatar : null },
    });
  });
  return rows;
}

function fromJson(text: string): Row[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new CliError(`the file is not valid JSON: ${(err as Error).message}`);
  }
  if (!Array.isArray(data)) throw new CliError('a JSON import file must hold an array of {id, name, displayName, avatar?}');
  return data.map((u: Record<string, unknown>, i) => ({
    line: i + 1,
    user: { id: String(u?.['id'] ?? ''), name: String(u?.['name'] ?? ''), displayName: String(u?.['displayName'] ?? ''), avatar: typeof u?.['avatar'] === 'string' ? u['avatar'] : null },
  }));
}

export function readUserFile(path: string): Row[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new CliError(`cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  return extname(path).toLowerCase() === '.csv' ? fromCsv(text) : fromJson(text);
}

export interface ImportSummary {
  added: number;
  existing: number;
  invalid: { line: number; reason: string }[];
}

/** Adds every valid row, with a progress bar on stderr; rows already present are counted, not errors. */
export async function importUsers(store: AccountStore, rows: Row[]): Promise<ImportSummary> {
  const summary: ImportSummary = { added: 0, existing: 0, invalid: [] };
  const bar = new cliProgress.SingleBar(
    { format: 'importing users [{bar}] {value}/{total} {percentage}% | eta {eta}s', stream: process.stderr, noTTYOutput: true, notTTYSchedule: 2000 },
    cliProgress.Presets.shades_classic,
  );
  bar.start(rows.length, 0);
  for (const { line, user } of rows) {
    if (!isNumericUserId(user.id)) summary.invalid.push({ line, reason: `id must be numeric (got ${JSON.stringify(user.id)})` });
    else if (!user.name || !user.displayName) summary.invalid.push({ line, reason: 'name and displayName are required' });
    else {
      try {
        await store.addUser(user);
        summary.added++;
      } catch (err) {
        if (!(err instanceof DuplicateError)) throw err;
        summary.existing++;
      }
    }
    bar.increment();
  }
  bar.stop();
  return summary;
}
