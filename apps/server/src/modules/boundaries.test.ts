/**
 * Module boundaries of the server: the graph of value imports between module folders
 * (`modules/<name>/`) must have no circle beyond the ones listed in KNOWN_CIRCLES, which are debt being
 * paid down (docs/architecture.md "Known seams"). A module reads another through its public
 * functions; a view that composes several belongs above them, not inside one of them. Type-only imports
 * (`import type`) are erased at build and do not count. A failure names the modules of the new circle
 * and the files whose imports close it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const MODULES = import.meta.dirname;

/**
 * Circles tolerated as debt. None is left (the lock domain's and the identity modules' are gone): a
 * module may not join one, and no new one may form.
 */
const KNOWN_CIRCLES: string[][] = [];

/** Every .ts file under `dir` except tests. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Relative specifiers of value imports and re-exports (`import type` / `export type` skipped). */
function valueImports(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1');
  const found: string[] = [];
  for (const match of code.matchAll(/^\s*(?:import|export)\s+(type\s+)?[^;]*?from\s+'(\.[^']+)'/gm)) {
    if (!match[1] && match[2]) found.push(match[2]);
  }
  return found;
}

/** module -> modules it imports values from, with the importing files per edge. */
function moduleGraph(): { edges: Map<string, Set<string>>; files: Map<string, string[]> } {
  const edges = new Map<string, Set<string>>();
  const files = new Map<string, string[]>();
  for (const file of sources(MODULES)) {
    const from = relative(MODULES, file).split('/')[0] ?? '';
    if (!statSync(join(MODULES, from)).isDirectory()) continue;
    for (const specifier of valueImports(readFileSync(file, 'utf8'))) {
      const target = relative(MODULES, resolve(dirname(file), specifier));
      const to = target.split('/')[0] ?? '';
      if (target.startsWith('..') || to === from || !target.includes('/')) continue;
      if (!edges.has(from)) edges.set(from, new Set());
      edges.get(from)?.add(to);
      const key = `${from} -> ${to}`;
      files.set(key, [...(files.get(key) ?? []), relative(MODULES, file)]);
    }
  }
  return { edges, files };
}

/** Strongly connected components with more than one module (Tarjan), each sorted. */
function circles(edges: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node) ?? 0);
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node) ?? 0, index.get(next) ?? 0));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
      onStack.delete(member);
      component.push(member);
      if (member === node) break;
    }
    if (component.length > 1) found.push(component.sort());
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe('server module boundaries', () => {
  it('finds a circle in a small graph', () => {
    const graph = new Map([['a', new Set(['b'])], ['b', new Set(['c'])], ['c', new Set(['a'])], ['d', new Set(['a'])]]);
    expect(circles(graph)).toEqual([['a', 'b', 'c']]);
    expect(valueImports("import type { A } from '../a/x.js';\nimport { b } from '../b/y.js';")).toEqual(['../b/y.js']);
  });

  it('has no circle between modules beyond the known ones', () => {
    const { edges, files } = moduleGraph();
    const unknown = circles(edges).filter((circle) => !KNOWN_CIRCLES.some((known) => circle.every((name) => known.includes(name))));
    const explained = unknown.map((circle) => ({
      circle,
      imports: [...files].filter(([key]) => circle.includes(key.split(' -> ')[0] ?? '') && circle.includes(key.split(' -> ')[1] ?? '')),
    }));
    expect(explained).toEqual([]);
  });
});
