// Bundles the server into dist/main.js (and the chunks it imports later): our code and @smart/contracts
// inlined, npm packages left external. Split, so that main.js can open the database while the rest loads.
import { build } from 'esbuild';

await build({
  entryPoints: ['src/main.ts'],
  outdir: 'dist',
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  packages: 'external',
  alias: { '@smart/contracts': '../../packages/contracts/src/index.ts' },
  banner: {
    js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
  },
  logLevel: 'warning',
});
console.log('server built: apps/server/dist/main.js');
