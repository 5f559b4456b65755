/**
 * The console imports `@iot/contract` through its index, which re-exports every module (`export *`). A
 * code-splitting group takes a module with everything it imports, so the frame's `console` chunk
 * (vite.chunks.ts) took the index and, with it, every endpoint table and its zod schemas (the schemas
 * are built when their module runs: on every console page). This plugin rewrites, in the web's own
 * code, `import { a, b } from '@iot/contract'` into imports of the modules that declare `a` and `b`, so
 * each chunk holds the contract modules its code uses. The map is read from the index's
 * `export * from './x.js'` lines and each module's `export const|function|class|type|interface|enum NAME`
 * declarations (the contract's only export forms; `export * as protocol` is a namespace). A name the map
 * does not know, or knows twice, fails the build.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type Plugin, runnerImport } from 'vite';
import { DESCRIPTORS, type DescribedExport, describedExports, descriptorModules, readsSchemaField } from './vite.endpoints.ts';

const CONTRACT_SOURCE = join(import.meta.dirname, '../../packages/contract/src');

/** Where an export of the index comes from: the declaring module's absolute path, and whether the name is a namespace of it. */
export interface ContractExport {
  file: string;
  namespace: boolean;
}

const STAR = /^export \* from '(\.[^']+)\.js';$/gm;
const NAMESPACE = /^export \* as (\w+) from '(\.[^']+)\.js';$/gm;
const DECLARATION = /^export (?:declare )?(?:const|let|function\*?|async function|class|abstract class|type|interface|enum) (\w+)/gm;

/** Every name the contract's index exports, to its declaring module (recursing through `export *`). Throws on a name exported twice. */
export function contractExports(index = join(CONTRACT_SOURCE, 'index.ts')): Map<string, ContractExport> {
  const names = new Map<string, ContractExport>();
  const add = (name: string, entry: ContractExport) => {
    const known = names.get(name);
    if (known && known.file !== entry.file) throw new Error(`@iot/contract exports ${name} from both ${known.file} and ${entry.file}`);
    names.set(name, entry);
  };
  const walk = (file: string) => {
    const text = readFileSync(file, 'utf8');
    for (const [, name] of text.matchAll(DECLARATION)) add(name as string, { file, namespace: false });
    for (const [, target] of text.matchAll(STAR)) walk(join(dirname(file), `${target}.ts`));
    for (const [, name, target] of text.matchAll(NAMESPACE)) add(name as string, { file: join(dirname(file), `${target}.ts`), namespace: true });
  };
  walk(index);
  return names;
}

const IMPORT = /import\s*\{([^}]*)\}\s*from\s*["']@iot\/contract["'];?/g;

/** What the build serves without zod, by declaring module: the names of its endpoint tables and plain data (vite.endpoints.ts). */
export type Described = ReadonlyMap<string, ReadonlySet<string>>;

/**
 * `code` with its value imports of `@iot/contract` pointed at the declaring modules, or at their
 * descriptors (DESCRIPTORS) for the names `described` lists there; a namespace import (`protocol`) goes
 * to its descriptors when the code reads only described members off it. `where` names the file in errors.
 */
export function rewriteContractImports(code: string, names: ReadonlyMap<string, ContractExport>, where: string, described: Described = new Map()): string {
  const rest = code.replace(IMPORT, '');
  return code.replace(IMPORT, (_statement, list: string) => list.split(',').map((part) => part.trim()).filter(Boolean).map((part) => {
    const [imported, local = imported] = part.split(/\s+as\s+/) as [string, string?];
    const entry = names.get(imported);
    if (!entry) throw new Error(`${where}: @iot/contract has no export ${imported} (vite.contract.ts reads its index)`);
    const served = described.get(entry.file);
    if (!entry.namespace) return `import { ${imported} as ${local} } from ${JSON.stringify(served?.has(imported) ? `${DESCRIPTORS}${entry.file}` : entry.file)};`;
    const members = [...rest.matchAll(new RegExp(`\\b${local}\\.(\\w+)`, 'g'))].map((match) => match[1] as string);
    const bare = [...rest.matchAll(new RegExp(`\\b${local}\\b(?!\\.)`, 'g'))].length;
    const describedOnly = bare === 0 && members.length > 0 && members.every((member) => served?.has(member));
    return `import * as ${local} from ${JSON.stringify(describedOnly ? `${DESCRIPTORS}${entry.file}` : entry.file)};`;
  }).join('\n'));
}

/**
 * The Vite plugin (build only: the dev server keeps the index). Runs after the TypeScript transform, so
 * type imports are gone. Endpoint tables come as descriptors (vite.endpoints.ts); web code reading a
 * schema off an endpoint fails the build.
 */
export function contractImportsPlugin(): Plugin {
  const names = contractExports();
  let described = new Map<string, Set<string>>();
  let tables = new Map<string, unknown>();
  let descriptors = new Map<string, string>();
  return {
    name: 'iot-contract-imports',
    apply: 'build',
    async buildStart() {
      // configFile: false, else the runner would load this config again.
      const { module } = await runnerImport<Record<string, unknown>>(join(CONTRACT_SOURCE, 'index.ts'), { configFile: false, logLevel: 'warn' });
      // Only modules building zod schemas need descriptors; the others are imported as they are.
      const withZod = (file: string) => readFileSync(file, 'utf8').includes("from 'zod'");
      const exports: DescribedExport[] = [...names].filter(([, entry]) => withZod(entry.file)).flatMap(([name, entry]) =>
        entry.namespace ? describedExports(module[name] as Record<string, unknown>, entry.file) : describedExports({ [name]: module[name] }, entry.file));
      described = new Map();
      for (const { name, file } of exports) described.set(file, (described.get(file) ?? new Set()).add(name));
      tables = new Map(exports.filter(({ name }) => name.endsWith('Endpoints')).map(({ name, value }) => [name, value]));
      descriptors = descriptorModules(exports);
    },
    resolveId: (id) => (id.startsWith(DESCRIPTORS) ? `\0${id}` : null),
    load(id) {
      if (!id.startsWith(`\0${DESCRIPTORS}`)) return null;
      const source = descriptors.get(id.slice(DESCRIPTORS.length + 1));
      if (source === undefined) this.error(`${id}: no endpoint table is declared there`);
      return source;
    },
    transform(code, id) {
      if (id.includes('/node_modules/') || id.startsWith(CONTRACT_SOURCE) || !/\.[jt]sx?$/.test(id)) return null;
      const schemaRead = readsSchemaField(code, tables);
      if (schemaRead) this.error(`${id} reads \`${schemaRead}\`: the build's endpoints carry no schemas (vite.endpoints.ts)`);
      if (!code.includes('@iot/contract')) return null;
      return { code: rewriteContractImports(code, names, id, described), map: null };
    },
  };
}
