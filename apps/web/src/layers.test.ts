/**
 * The web's rooms and which doors between them are open, read from the import graph of src/:
 * - a page folder (pages/<name>/) imports no other page folder and not the registry: what two pages
 *   share lives in components/, hooks/, api/, lib/ or session/;
 * - pages import nothing from app/, the shell (App, Console, layout, router, guard, frames);
 * - the library rooms (components/, hooks/, api/, lib/, session/, the header's features live/, inbox/,
 *   contact/, sessions/, twoFactor/, and the big screen screen/) import neither pages/ nor app/;
 * - app/ reaches pages only through pages/registry.ts (the lazy per-route loaders and the sign-in page).
 * Only relative specifiers are followed (packages are not rooms). A failure names the file and the import.
 */
import { describe, expect, it } from 'vitest';

/** One import: the importing file and the imported module, both relative to src/ without `./`. */
interface Edge {
  file: string;
  specifier: string;
  target: string;
}

/**
 * Rooms any page or the shell may use; they import neither pages/ nor app/. Besides the shared kits,
 * the console-wide features the header opens (live stream, inbox, contact details, sessions, two-factor)
 * and the big screen (a route of its own, loaded through the registry, sharing the home page's charts).
 */
const LIBRARY_ROOMS = new Set(['components', 'hooks', 'api', 'lib', 'session', 'live', 'inbox', 'contact', 'sessions', 'twoFactor', 'screen']);
const REGISTRY = 'pages/registry';

/** `a/b/../c/./d` -> `a/c/d`; a path climbing out of src/ keeps its leading `..`. */
function normalise(path: string): string {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..' && parts.length > 0 && parts[parts.length - 1] !== '..') parts.pop();
    else parts.push(part);
  }
  return parts.join('/');
}

/**
 * The relative import specifiers of a module's source: `from '...'`, `import '...'` and `import('...')`.
 * Comments are dropped first (a docstring may quote an import); a `//` inside a string such as a URL
 * is kept because only a `//` at a line's start or after a space starts a comment here.
 */
export function importSpecifiers(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1');
  const found: string[] = [];
  for (const match of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]*)['"]/g)) found.push(match[1] as string);
  return found;
}

/** The first one or two path segments that name a file's room: `pages/lock`, `app`, `components`, `main.tsx`. */
function room(path: string): { top: string; page?: string } {
  const module = path.replace(/\.(tsx?|jsx?)$/, '');
  const [top = '', second] = module.split('/');
  return top === 'pages' && module !== REGISTRY && second !== undefined ? { top, page: second } : { top };
}

/** The rule an import breaks, or undefined when the door is open. */
export function brokenRule(edge: Edge): string | undefined {
  const from = room(edge.file);
  const to = room(edge.target);
  if (from.page !== undefined && edge.target === REGISTRY) return 'a page imports the registry (the shell\'s door to pages)';
  if (from.page !== undefined && to.page !== undefined && to.page !== from.page) return `page ${from.page} imports page ${to.page}: move the shared piece to components/, hooks/, api/, lib/ or session/`;
  if (from.page !== undefined && to.top === 'app') return 'a page imports the shell (app/)';
  if (LIBRARY_ROOMS.has(from.top) && (to.top === 'pages' || to.top === 'app')) return `the library room ${from.top}/ imports ${to.top}/`;
  if (from.top === 'app' && to.top === 'pages' && edge.target !== REGISTRY) return 'the shell imports a page other than through pages/registry.ts';
  return undefined;
}

/** Every relative import of `sources` (path relative to src/ -> source text). */
export function importEdges(sources: Record<string, string>): Edge[] {
  return Object.entries(sources).flatMap(([path, source]) => {
    const file = path.replace(/^\.\//, '');
    const directory = file.split('/').slice(0, -1).join('/');
    return importSpecifiers(source).map((specifier) => ({
      file, specifier, target: normalise(`${directory}/${specifier}`).replace(/\.(tsx?|jsx?)$/, ''),
    }));
  });
}

const SOURCES = import.meta.glob<string>(['./**/*.ts', './**/*.tsx'], { query: '?raw', import: 'default', eager: true });

describe('web layers', () => {
  it('reads the import graph of src/ (pages, shell and library rooms all present)', () => {
    const edges = importEdges(SOURCES);
    expect(edges.length).toBeGreaterThan(500);
    expect(edges).toContainEqual(expect.objectContaining({ file: 'app/router.tsx', target: REGISTRY }));
  });

  it('keeps every import inside its open doors', () => {
    const broken = importEdges(SOURCES).flatMap((edge) => {
      const rule = brokenRule(edge);
      return rule ? [`${edge.file} imports '${edge.specifier}': ${rule}`] : [];
    });
    expect(broken).toEqual([]);
  });

  it('names each kind of forbidden import', () => {
    const edge = (file: string, target: string): Edge => ({ file, specifier: target, target });
    expect(brokenRule(edge('pages/information/ConfigCard.tsx', 'pages/commandDownLog/CommandTags'))).toMatch(/page information imports page commandDownLog/);
    expect(brokenRule(edge('pages/lock/LockInfoPage.tsx', 'app/useSession'))).toMatch(/shell/);
    expect(brokenRule(edge('pages/lock/LockInfoPage.tsx', REGISTRY))).toMatch(/registry/);
    expect(brokenRule(edge('components/LockLink.tsx', 'pages/lock/LockInfoPage'))).toMatch(/components\/ imports pages\//);
    expect(brokenRule(edge('hooks/useSession.ts', 'app/router'))).toMatch(/hooks\/ imports app\//);
    expect(brokenRule(edge('app/router.tsx', 'pages/login/LoginPage'))).toMatch(/registry/);
    expect(brokenRule(edge('app/router.tsx', REGISTRY))).toBeUndefined();
    expect(brokenRule(edge('pages/lock/LockInfoPage.tsx', 'pages/lock/LockFilters'))).toBeUndefined();
    expect(brokenRule(edge('pages/lock/LockInfoPage.tsx', 'components/ServerTable'))).toBeUndefined();
  });

  it('finds static, side-effect and dynamic imports, not ones quoted in comments', () => {
    const source = "/** import { x } from './quoted'; */\nimport a from './a';\nimport './b.css';\nexport { c } from '../c';\n// import d from './d';\nconst e = () => import('./e');\nconst url = 'https://x.test'; import f from 'react';";
    expect(importSpecifiers(source)).toEqual(['./a', './b.css', '../c', './e']);
  });
});
