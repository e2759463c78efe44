// The sandbox console's build: Preact + Vite, static files the gateway serves under /console/.
// `node tools/build.js` runs it (only when a source changed); `npx vite build apps/console` does the same by hand.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import preact from '@preact/preset-vite';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  base: '/console/',
  plugins: [preact()],
  logLevel: 'warn',
  resolve: {
    // The one browser-safe part of libs/contracts the console reads: the spec's suffix tables.
    alias: { '@paykit/contracts/cards/sandbox': fileURLToPath(new URL('../../libs/contracts/src/cards/sandbox.ts', import.meta.url)) },
  },
  build: {
    outDir: fileURLToPath(new URL('../../dist/console', import.meta.url)),
    emptyOutDir: true,
    // Served by the gateway on the same origin: no CDN, no external fonts.
    assetsInlineLimit: 0,
    reportCompressedSize: false,
  },
});
