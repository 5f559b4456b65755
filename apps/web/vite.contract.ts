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
import type { Plugin } from 'vite';

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

/** `code` with its value imports of `@iot/contract` pointed at the declaring modules; `where` names the file in errors. */
export function rewriteContractImports(code: string, names: ReadonlyMap<string, ContractExport>, where: string): string {
  return code.replace(IMPORT, (_statement, list: string) => list.split(',').map((part) => part.trim()).filter(Boolean).map((part) => {
    const [imported, local = imported] = part.split(/\s+as\s+/) as [string, string?];
    const entry = names.get(imported);
    if (!entry) throw new Error(`${where}: @iot/contract has no export ${imported} (vite.contract.ts reads its index)`);
    const path = JSON.stringify(entry.file);
    return entry.namespace ? `import * as ${local} from ${path};` : `import { ${imported} as ${local} } from ${path};`;
  }).join('\n'));
}

/** The Vite plugin (build only: the dev server keeps the index). Runs after the TypeScript transform, so type imports are gone. */
export function contractImportsPlugin(): Plugin {
  let names: Map<string, ContractExport> | undefined;
  return {
    name: 'iot-contract-imports',
    apply: 'build',
    transform(code, id) {
      if (!code.includes('@iot/contract') || id.includes('/node_modules/') || id.startsWith(CONTRACT_SOURCE)) return null;
      names ??= contractExports();
      return { code: rewriteContractImports(code, names, id), map: null };
    },
  };
}
