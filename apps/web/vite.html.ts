/**
 * The entry's stylesheet (src/styles.css, a few KiB) goes into index.html as a `<style>` element
 * instead of a file the page must fetch before it can draw (one request and one round
 * trip less on every first load; the server's Content-Security-Policy allows inline styles, antd
 * injects its own at run time anyway).
 */
import type { Plugin } from 'vite';

/**
 * Takes the entry chunk's stylesheets out of its CSS list before Vite writes index.html and the
 * lazy chunks' preload lists, and puts their rules into index.html as `<style>`. Left in the list,
 * the file was named in the preload list of every chunk importing the entry (the console's), and
 * Vite's preload fetched it once more on a first load: it looks for a `<link>`, not a `<style>`.
 * The files stay emitted (a stale page of an older build may still ask for them).
 */
export function inlineEntryCss(): Plugin {
  const inlined: string[] = [];
  return {
    name: 'iot-inline-entry-css',
    apply: 'build',
    enforce: 'post',
    generateBundle: {
      // Before vite:build-html (the <link> elements) and vite:build-import-analysis (the preload lists) read the list.
      order: 'pre',
      handler(_options, bundle) {
        inlined.length = 0;
        for (const chunk of Object.values(bundle)) {
          if (chunk.type !== 'chunk' || !chunk.isEntry || !chunk.viteMetadata) continue;
          inlined.push(...chunk.viteMetadata.importedCss);
          chunk.viteMetadata.importedCss.clear();
        }
      },
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        const bundle = context.bundle;
        if (!bundle) return [];
        return inlined.flatMap((fileName) => {
          const asset = bundle[fileName];
          if (asset?.type !== 'asset') return [];
          return [{ tag: 'style', children: String(asset.source).replace(/<\/style/gi, '<\\/style'), injectTo: 'head' as const }];
        });
      },
    },
  };
}
