/**
 * The entry's stylesheet (src/styles.css, a few KiB) goes into index.html as a `<style>` element
 * instead of a file the page must fetch before it can draw (one request and one round
 * trip less on every first load; the server's Content-Security-Policy allows inline styles, antd
 * injects its own at run time anyway).
 */
import type { Plugin } from 'vite';

/**
 * Replaces index.html's stylesheet links with the styles themselves. The files stay emitted: a lazy
 * chunk's preload list may name the entry's stylesheet (心跳日志's charts did), and a missing file
 * (404) makes Vite's preload throw and the page crash; loaded twice, the same rules change nothing.
 */
export function inlineEntryCss(): Plugin {
  return {
    name: 'iot-inline-entry-css',
    apply: 'build',
    enforce: 'post',
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        const bundle = context.bundle;
        if (!bundle) return html;
        return html.replace(/<link rel="stylesheet"[^>]*href="[^"]*\/(assets\/[^"]+\.css)"[^>]*>/g, (link, fileName: string) => {
          const asset = bundle[fileName];
          if (asset?.type !== 'asset') return link;
          return `<style>${String(asset.source).replace(/<\/style/gi, '<\\/style')}</style>`;
        });
      },
    },
  };
}
