// No import cycles in apps/ and libs/ (issue 39): a cycle between Nest modules needs forwardRef and
// makes the order of start-up depend on which file loads first; a cycle between plain files gives
// `undefined` at load time. Type-only imports count too: they are where the next value import lands.
// Walks the files' imports with TypeScript's pre-processor (no type checking: well under a second).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as ts from 'typescript';

const root = path.resolve(__dirname, '..');
const { compilerOptions } = JSON.parse(fs.readFileSync(path.join(root, 'tsconfig.base.json'), 'utf8')) as { compilerOptions: { paths: Record<string, string[]> } };
const aliases = new Map(Object.entries(compilerOptions.paths).map(([name, [target]]) => [name, path.join(root, target)]));

function* sources(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') yield* sources(full);
    } else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) {
      yield full;
    }
  }
}

function resolve(from: string, specifier: string): string | undefined {
  const aliased = aliases.get(specifier);
  if (aliased) return aliased;
  if (!specifier.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), specifier);
  return [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')].find((candidate) => fs.existsSync(candidate));
}

/** The import graph's strongly connected components of more than one file (Tarjan), as paths from the root. */
function importCycles(files: string[]): string[][] {
  const edges = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
    edges.set(
      file,
      importedFiles.map(({ fileName }) => resolve(file, fileName)).filter((target): target is string => target !== undefined),
    );
  }
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, counter);
    low.set(file, counter++);
    stack.push(file);
    onStack.add(file);
    for (const target of edges.get(file) ?? []) {
      if (!edges.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(path.relative(root, member));
    } while (member !== file);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const file of edges.keys()) if (!index.has(file)) visit(file);
  return cycles;
}

describe('import graph', () => {
  it('has no cycle in apps/ or libs/ (no Nest module needs forwardRef)', () => {
    const files = [...sources(path.join(root, 'apps')), ...sources(path.join(root, 'libs'))];
    expect(importCycles(files)).toEqual([]);
  });

  it('finds a cycle when there is one', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-cycles-'));
    try {
      fs.writeFileSync(path.join(dir, 'a.ts'), "import { b } from './b';\nexport const a = () => b;\n");
      fs.writeFileSync(path.join(dir, 'b.ts'), "import type { a } from './a';\nexport const b = (f?: typeof a) => f;\n");
      fs.writeFileSync(path.join(dir, 'c.ts'), "import { a } from './a';\nexport const c = a;\n");
      expect(importCycles([...sources(dir)])).toEqual([[path.relative(root, path.join(dir, 'a.ts')), path.relative(root, path.join(dir, 'b.ts'))]]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
