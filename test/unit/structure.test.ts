import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * The shape of the code, as docs/architecture.md promises it: no import circle, each exported
 * name defined in one source file, no source file over 400 lines, no folder over 25 files,
 * shared/ in folders by domain on floors (its lowest two import nothing above them), the imports
 * that run back up between sibling folders held at their count, and every folder of electron/,
 * renderer/ and shared/ named in the architecture doc.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const ROOTS = ['electron', 'shared', 'renderer'];
const SKIP = new Set(['node_modules', 'dist']);

function walk(dir: string, files: string[], dirs: string[]): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue;
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      dirs.push(p);
      walk(p, files, dirs);
    } else if (/\.(ts|tsx|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) {
      files.push(p);
    }
  }
}

const files: string[] = [];
const dirs: string[] = [];
for (const r of ROOTS) walk(path.join(ROOT, r), files, dirs);
const rel = (p: string): string => path.relative(ROOT, p);
const source = new Map(files.map((f) => [f, readFileSync(f, 'utf8')]));

/** Static relative imports and re-exports (type-only ones too: they tie the files as much). */
function importsOf(file: string): string[] {
  const out: string[] = [];
  const text = source.get(file)!;
  for (const m of text.matchAll(
    /(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?['"](\.[^'"]+)['"]/g,
  )) {
    const target = path.normalize(path.join(path.dirname(file), m[1]!));
    const hit = [target, target.replace(/\.js$/, '.ts'), `${target}.ts`, `${target}.tsx`].find((c) =>
      source.has(c),
    );
    if (hit) out.push(hit);
  }
  return out;
}

/** Every import circle, as the files on it (Tarjan's strongly connected components). */
function circles(): string[][] {
  const graph = new Map(files.map((f) => [f, importsOf(f)]));
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)!) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(rel(w));
      } while (w !== v);
      if (component.length > 1) found.push(component);
    }
  };
  for (const f of files) if (!index.has(f)) visit(f);
  return found;
}

/**
 * The imports that run back up between sibling folders, per tree (electron, shared, renderer):
 * an import counts against the two folders directly under the deepest folder its two files
 * share; among sibling folders that import each other, the lowest-to-highest order with the
 * fewest imports against it is their floors, and its upward imports are counted.
 */
function backUpImports(): Map<string, string[]> {
  const between = new Map<string, Map<string, string[]>>(); // parent folder -> "a>b" -> imports
  for (const f of files) {
    for (const t of importsOf(f)) {
      const a = rel(f).split('/');
      const b = rel(t).split('/');
      let i = 0;
      while (a[i] === b[i]) i++;
      // Both sides must be folders: a file beside a folder is not one of its floors.
      if (i >= a.length - 1 || i >= b.length - 1) continue;
      const parent = a.slice(0, i).join('/');
      const pairs = between.get(parent) ?? new Map<string, string[]>();
      between.set(parent, pairs);
      const key = `${a[i]}>${b[i]}`;
      pairs.set(key, [...(pairs.get(key) ?? []), `${rel(f)} -> ${rel(t)}`]);
    }
  }
  const found = new Map<string, string[]>(ROOTS.map((r) => [r, []]));
  for (const [parent, pairs] of between) {
    const tree = parent.split('/')[0] || '(top)';
    for (const group of mutualGroups(pairs)) {
      found.set(tree, [...(found.get(tree) ?? []), ...fewestUpward(group, pairs)]);
    }
  }
  return found;
}

/** The groups of sibling folders that import each other (strongly connected, two or more). */
function mutualGroups(pairs: Map<string, string[]>): string[][] {
  const next = new Map<string, string[]>();
  for (const key of pairs.keys()) {
    const [a, b] = key.split('>') as [string, string];
    next.set(a, [...(next.get(a) ?? []), b]);
    if (!next.has(b)) next.set(b, []);
  }
  const reach = (from: string): Set<string> => {
    const seen = new Set<string>();
    const todo = [from];
    while (todo.length > 0) {
      for (const n of next.get(todo.pop()!)!) {
        if (seen.has(n)) continue;
        seen.add(n);
        todo.push(n);
      }
    }
    return seen;
  };
  const reaches = new Map([...next.keys()].map((n) => [n, reach(n)]));
  const groups = new Map<string, string[]>();
  for (const n of next.keys()) {
    const group = [...next.keys()].filter(
      (m) => m === n || (reaches.get(n)!.has(m) && reaches.get(m)!.has(n)),
    );
    if (group.length > 1) groups.set(group.sort().join(','), group);
  }
  return [...groups.values()];
}

/** The upward imports of a group's order with the fewest (over subsets, lowest floor first). */
function fewestUpward(group: string[], pairs: Map<string, string[]>): string[] {
  const best = new Map<number, string[]>([[0, []]]);
  for (let mask = 0; mask < 1 << group.length; mask++) {
    const below = best.get(mask);
    if (!below) continue;
    group.forEach((top, i) => {
      if (mask & (1 << i)) return;
      // Every import from a floor already placed into the one placed above them runs up.
      const up = group.flatMap((low, j) => (mask & (1 << j) ? (pairs.get(`${low}>${top}`) ?? []) : []));
      const key = mask | (1 << i);
      const known = best.get(key);
      if (!known || below.length + up.length < known.length) best.set(key, [...below, ...up]);
    });
  }
  return best.get((1 << group.length) - 1)!;
}

describe('the code’s structure', () => {
  it('has no import circle', () => {
    expect(circles()).toEqual([]);
  });

  it('defines each exported name in one source file', () => {
    const definedIn = new Map<string, string[]>();
    for (const [file, text] of source) {
      for (const m of text.matchAll(
        /^export\s+(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(?:type|interface|class|function\*?|const|let|enum)\s+([A-Za-z_$][\w$]*)/gm,
      )) {
        definedIn.set(m[1]!, [...(definedIn.get(m[1]!) ?? []), rel(file)]);
      }
    }
    const twice = [...definedIn]
      .filter(([, where]) => where.length > 1)
      .map(([n, w]) => `${n}: ${w.join(', ')}`);
    expect(twice).toEqual([]);
  });

  it('keeps every source file at 400 lines or fewer', () => {
    const big = [...source]
      .map(([file, text]) => [rel(file), text.split('\n').length] as const)
      .filter(([, lines]) => lines > 400);
    expect(big).toEqual([]);
  });

  it('keeps at most 25 source files in a folder (subfolders, not name prefixes)', () => {
    const perFolder = new Map<string, number>();
    for (const f of files)
      perFolder.set(rel(path.dirname(f)), (perFolder.get(rel(path.dirname(f))) ?? 0) + 1);
    expect([...perFolder].filter(([, n]) => n > 25)).toEqual([]);
  });

  it("keeps shared/'s lowest floors: figures/ imports nothing else of shared/, model/ only figures/", () => {
    const floors: [string, string[]][] = [
      ['shared/figures', []],
      ['shared/model', ['shared/figures']],
    ];
    const upward = floors.flatMap(([floor, below]) =>
      files
        .filter((f) => rel(f).startsWith(`${floor}/`))
        .flatMap((f) =>
          importsOf(f)
            .map(rel)
            .filter((t) => t.startsWith('shared/') && ![floor, ...below].some((d) => t.startsWith(`${d}/`)))
            .map((t) => `${rel(f)} -> ${t}`),
        ),
    );
    expect(upward).toEqual([]);
  });

  it('keeps the imports that run back up between sibling folders at what they are (issue 36)', () => {
    // shared/records/ (history, journal, kinds, result-file) reads the job kinds' table from
    // shared/contract/jobs.ts.
    const most: Record<string, number> = { electron: 0, shared: 4, renderer: 0 };
    const over = [...backUpImports()].filter(([tree, up]) => up.length > (most[tree] ?? 0));
    expect(over).toEqual([]);
  });

  it('keeps shared/ in folders by domain, none of its code at its root', () => {
    const atRoot = readdirSync(path.join(ROOT, 'shared')).filter(
      (n) => /\.(ts|tsx)$/.test(n) && statSync(path.join(ROOT, 'shared', n)).isFile(),
    );
    expect(atRoot).toEqual([]);
  });

  it('names every folder of electron/, renderer/ and shared/ in docs/architecture.md', () => {
    const doc = readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');
    const missing = dirs.map(rel).filter((d) => !doc.includes(`\`${d}/\``) && !doc.includes(`\`${d}\``));
    expect(missing).toEqual([]);
  });

  it('names in docs/architecture.md only folders that exist', () => {
    const doc = readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');
    const named = [...doc.matchAll(/`((?:electron|renderer|shared)(?:\/[\w.-]+)*)\/?`/g)].map((m) => m[1]!);
    const gone = named.filter((d) => {
      try {
        return !statSync(path.join(ROOT, d)).isDirectory() && !statSync(path.join(ROOT, d)).isFile();
      } catch {
        return true;
      }
    });
    expect(gone).toEqual([]);
  });
});
