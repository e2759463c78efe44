/**
 * Extracts, once, the request fields of every published version of the API document, from the
 * history of `openapi.yaml` in the API's public repository:
 *
 *   npm run build --silent && node dist/tools/openapi-versions/extract.js <git dir of the public repository>
 *
 * Every commit of the main line that changed `openapi.yaml` is a version. For each operation it
 * writes each body field path and query parameter with the versions that had it (ranges of
 * indexes into `versions`), to libs/validation/src/earlier-versions/assets/request-fields-by-version.json,
 * and prints the rename candidates it sees (see libs/validation/src/earlier-versions/README.md).
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { OperationFields, requestFields } from '@paykit/validation';

const OUTPUT = join(__dirname, '..', '..', '..', 'libs', 'validation', 'src', 'earlier-versions', 'assets', 'request-fields-by-version.json');
/** When run from source (ts-node, jest) rather than dist/. */
const OUTPUT_FROM_SOURCE = join(__dirname, '..', '..', 'libs', 'validation', 'src', 'earlier-versions', 'assets', 'request-fields-by-version.json');

interface Version {
  commit: string;
  date: string;
}

/** `[0,1,2,5,7,8]` -> `"0-2,5,7-8"`. */
export function ranges(indexes: number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < indexes.length;) {
    let j = i;
    while (j + 1 < indexes.length && indexes[j + 1] === indexes[j] + 1) j += 1;
    parts.push(i === j ? String(indexes[i]) : `${indexes[i]}-${indexes[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}

function git(gitDir: string, args: string[]): string {
  return execFileSync('git', ['--git-dir', gitDir, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

interface RenameCandidate {
  operation: string;
  from: string;
  to: string;
  type: string;
  version: number;
}

/**
 * A field gone and another added in the same step, under the same parent, with the same type, and
 * the only such pair under that parent: a possible rename, for a person to confirm.
 */
function renameCandidates(operation: string, before: OperationFields, after: OperationFields, version: number): RenameCandidate[] {
  const parent = (path: string) => path.slice(0, Math.max(0, path.lastIndexOf('.')));
  const gone = [...before.body].filter(([path]) => !after.body.has(path));
  const added = [...after.body].filter(([path]) => !before.body.has(path));
  const out: RenameCandidate[] = [];
  for (const [from, type] of gone) {
    if (gone.some(([other]) => other !== from && from.startsWith(`${other}.`))) continue;
    const siblingsGone = gone.filter(([path, t]) => parent(path) === parent(from) && t === type);
    const matches = added.filter(([path, t]) => parent(path) === parent(from) && t === type);
    if (siblingsGone.length === 1 && matches.length === 1) out.push({ operation, from, to: matches[0][0], type, version });
  }
  return out;
}

function main(): void {
  const gitDir = process.argv[2];
  if (!gitDir) throw new Error('usage: node dist/tools/openapi-versions/extract.js <git dir of the public repository> [output file]');
  const output = process.argv[3] ?? (__dirname.includes(`${join('dist', 'tools')}`) ? OUTPUT : OUTPUT_FROM_SOURCE);
  const log = git(gitDir, ['log', '--first-parent', '--reverse', '--format=%H %ad', '--date=short', '--', 'openapi.yaml']).trim().split('\n');
  const versions: Version[] = [];
  const presence = new Map<string, { in: number[]; body: Map<string, number[]>; query: Map<string, number[]> }>();
  /** The type a body field had when last seen, by `operation field`. */
  const types = new Map<string, string>();
  const candidates: RenameCandidate[] = [];
  let previous: Map<string, OperationFields> | undefined;
  for (const line of log) {
    const [commit, date] = line.split(' ');
    let document: unknown;
    try {
      document = load(git(gitDir, ['show', `${commit}:openapi.yaml`]));
    } catch (error) {
      process.stderr.write(`skipped ${commit} (${date}): ${(error as Error).message.split('\n')[0]}\n`);
      continue;
    }
    if (typeof document !== 'object' || document === null) continue;
    const index = versions.length;
    versions.push({ commit, date });
    const operations = requestFields(document);
    for (const [operation, fields] of operations) {
      let entry = presence.get(operation);
      if (!entry) presence.set(operation, (entry = { in: [], body: new Map(), query: new Map() }));
      entry.in.push(index);
      for (const [path, type] of fields.body) {
        entry.body.set(path, [...(entry.body.get(path) ?? []), index]);
        types.set(`${operation} ${path}`, type);
      }
      for (const name of fields.query) entry.query.set(name, [...(entry.query.get(name) ?? []), index]);
      const before = previous?.get(operation);
      if (before) candidates.push(...renameCandidates(operation, before, fields, index));
    }
    previous = operations;
  }
  const sortedRecord = (map: Map<string, number[]>, typeOf: (key: string) => string = () => '') =>
    Object.fromEntries([...map].sort(([a], [b]) => a.localeCompare(b)).map(([key, indexes]) => [key, `${typeOf(key)}${ranges(indexes)}`]));
  const operations = Object.fromEntries(
    [...presence]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([operation, entry]) => [
        operation,
        {
          in: ranges(entry.in),
          ...(entry.body.size ? { body: sortedRecord(entry.body, (path) => `${types.get(`${operation} ${path}`)} `) } : {}),
          ...(entry.query.size ? { query: sortedRecord(entry.query) } : {}),
        },
      ]),
  );
  const file = {
    description:
      'Request fields of every published version of the API document (openapi.yaml of the public repository, each main-line commit that changed it), ' +
      'with neutral names. Per operation, `in` is the versions that had it and each body field maps to its type and the versions that had it, each query parameter to the versions that had it (ranges of indexes into `versions`). Regenerate with tools/openapi-versions/extract.ts.',
    versions: versions.map((v) => `${v.date} ${v.commit.slice(0, 12)}`),
    operations,
  };
  // One operation a line: a regeneration's diff shows which operations changed.
  const lines = Object.entries(operations).map(([operation, entry]) => `    ${JSON.stringify(operation)}: ${JSON.stringify(entry)}`);
  const head = JSON.stringify({ description: file.description, versions: file.versions }, null, 2).slice(0, -2);
  writeFileSync(output, `${head},\n  "operations": {\n${lines.join(',\n')}\n  }\n}\n`);
  process.stdout.write(`${versions.length} versions, ${presence.size} operations -> ${output}\n`);
  const unique = new Map(candidates.map((c) => [`${c.operation} ${c.from} ${c.to}`, c]));
  for (const c of unique.values()) process.stdout.write(`rename candidate: ${c.operation}: ${c.from} -> ${c.to} (${c.type}) at ${versions[c.version].date}\n`);
}

if (require.main === module) main();
