/**
 * Vite config of the console: served under /api/ (history mode, output dist/). Each emitted file also
 * gets a Brotli (.br) and a gzip (.gz) copy, which the server sends as they are (web-plugin.ts).
 * `vite dev` proxies the API prefixes to the server (API_TARGET, default http://localhost:8080).
 */
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { loadEnv } from 'vite';
import { compression } from 'vite-plugin-compression2';
import { defineConfig } from 'vitest/config';
import { antdStaticCssPlugin } from './vite.antd.ts';
import { CHUNK_GROUPS, entryWeightPlugin } from './vite.chunks.ts';
import { contractImportsPlugin } from './vite.contract.ts';
import { inlineEntryCss } from './vite.html.ts';

const proxied = ['/oauth', '/iot', '/v1', '/nbdev', '/static', '/wxpay-sandbox'];

/**
 * react-router 7.18's package.json exports only its development build (dist/development: dev-only
 * warnings and checks) under every condition; the build takes dist/production, its published twin.
 */
const REACT_ROUTER_PRODUCTION = fileURLToPath(new URL('../../node_modules/react-router/dist/production/index.mjs', import.meta.url));

export default defineConfig(({ command, mode }) => {
  const target = loadEnv(mode, '.', '').API_TARGET || 'http://localhost:8080';
  return {
    base: '/api/',
    resolve: command === 'build' ? { alias: [{ find: /^react-router$/, replacement: REACT_ROUTER_PRODUCTION }] } : {},
    plugins: [react(), contractImportsPlugin(), antdStaticCssPlugin(), inlineEntryCss(), entryWeightPlugin(), compression({ algorithms: ['brotliCompress', 'gzip'], threshold: 1024 })],
    build: {
      outDir: 'dist',
      emptyOutDir: true,
      chunkSizeWarningLimit: 1200,
      // Compressed copies are written anyway (above); gzip sizes only for a report nobody reads cost build time.
      reportCompressedSize: false,
      // @rc-component/form declares no `sideEffects`, so antd's form context (used by Select, Input, ...)
      // kept all of it, async-validator included (~12 KiB Brotli), on every page. Its modules have none.
      rollupOptions: {
        treeshake: { moduleSideEffects: (id: string) => !id.includes('/node_modules/@rc-component/form/') },
        output: { codeSplitting: { groups: CHUNK_GROUPS } },
      },
    },
    server: { proxy: Object.fromEntries(proxied.map((prefix) => [prefix, { target }])) },
    test: { name: 'web', environment: 'node', include: ['src/**/*.test.ts'] },
  };
});
