/**
 * antd's static CSS for the console's zero-runtime theme (src/app/antdStyles.ts): the module
 * `virtual:antd-static-css` exports, as a string, antd/dist/antd.css less what the console never uses:
 * - the variable blocks scoped to the class names antd's own extraction gave them (`.css-var-_R_…`, 8% of
 *   the file): no element carries those; the console's variables are set at run time from its theme;
 * - the rules of the components listed in UNUSED (another 11%), checked at build time:
 *   if the style module of such a component (antd/es/<folder>/style/, which every component that draws
 *   it imports) ends up in the bundle, the build fails and names it.
 * Rules are filtered with postcss; a rule is dropped only when every one of its selectors is. 1,018 KB
 * in, 827 KB out (85 KB gzip).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import postcss, { type Container } from 'postcss';
import type { Plugin } from 'vite';

/** antd components the console does not use: their class-name prefix and their folder in antd/es. */
const UNUSED: { prefix: string; folder: string }[] = [
  { prefix: 'affix', folder: 'affix' }, { prefix: 'anchor', folder: 'anchor' }, { prefix: 'avatar', folder: 'avatar' },
  { prefix: 'carousel', folder: 'carousel' }, { prefix: 'cascader', folder: 'cascader' }, { prefix: 'color-picker', folder: 'color-picker' },
  { prefix: 'float-btn', folder: 'float-button' }, { prefix: 'masonry', folder: 'masonry' }, { prefix: 'mentions', folder: 'mentions' },
  { prefix: 'rate', folder: 'rate' }, { prefix: 'slider', folder: 'slider' },
  { prefix: 'splitter', folder: 'splitter' }, { prefix: 'tour', folder: 'tour' },
];

const VIRTUAL_ID = 'virtual:antd-static-css';
const RESOLVED_ID = `\0${VIRTUAL_ID}`;
const unusedSelector = new RegExp(`\\.ant-(${UNUSED.map((entry) => entry.prefix).join('|')})(?=[-\\s.:,>+~\\[)]|$)`);

/** Whether a selector only styles what the console never shows (see the module's docstring). */
const dropped = (selector: string) => selector.includes('.css-var-_') || unusedSelector.test(selector);

/** Keeps, in a container's children (recursively), the rules and at-rules that are not wholly dropped. */
function keepUsed(container: Container): void {
  // Filtered in one pass: removing the rules one by one (postcss's remove()) takes seconds on antd.css.
  container.nodes = container.nodes?.filter((node) => {
    if (node.type === 'rule') return !node.selectors.every(dropped);
    if (node.type === 'atrule' && node.nodes) {
      keepUsed(node);
      return node.nodes.length > 0;
    }
    return true;
  });
}

/** antd.css (its text) less the unused parts (see the module's docstring). */
export function antdStaticCss(source: string): string {
  const root = postcss.parse(source);
  keepUsed(root);
  return root.toString();
}

/** The Vite plugin serving `virtual:antd-static-css` and failing the build when an UNUSED component is bundled. */
export function antdStaticCssPlugin(): Plugin {
  const antdCss = createRequire(import.meta.url).resolve('antd/dist/antd.css');
  const unusedFolder = new RegExp(`[\\\\/]node_modules[\\\\/]antd[\\\\/]es[\\\\/](${UNUSED.map((entry) => entry.folder).join('|')})[\\\\/]style[\\\\/]`);
  return {
    name: 'iot-antd-static-css',
    resolveId: (id) => (id === VIRTUAL_ID ? RESOLVED_ID : null),
    load(id) {
      if (id !== RESOLVED_ID) return null;
      return `export default ${JSON.stringify(antdStaticCss(readFileSync(antdCss, 'utf8')))};`;
    },
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        const used = Object.entries(chunk.modules).find(([id, module]) => unusedFolder.test(id) && module.renderedLength > 0);
        if (used) this.error(`${used[0]} is bundled, but its styles are left out of the console's static antd CSS (vite.antd.ts UNUSED)`);
      }
    },
  };
}
