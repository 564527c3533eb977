import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { loginGuard } from './build/login-guard.ts';

// The API the dev server proxies to: the local server by default, another one with API_TARGET=http://…
const apiTarget = globalThis.process?.env.API_TARGET || 'http://127.0.0.1:8080';

// Every page is a dynamic import (see src/router.tsx and src/features/registry.ts), so each route is its
// own chunk; /login must stay free of the shell, antd's heavy components, TanStack Query and every resource
// definition: the login guard fails the build when a definition lands in /login or /login outgrows 150 KB.
export default defineConfig({
  plugins: [
    react(),
    loginGuard({ loginModule: /[\\/]src[\\/]shell[\\/]login[\\/]LoginPage\.tsx$/, budgetKb: 150 }),
  ],
  server: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
    },
  },
  preview: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Chromium supports modulepreload natively; the polyfill would only add bytes to the entry chunk.
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 600,
    reportCompressedSize: false,
    manifest: 'build-manifest.json',
    rolldownOptions: {
      treeshake: {
        // These packages have no top-level side effects but do not say so; without this, antd's Input
        // drags the whole form engine (rc-form + async-validator) into /login.
        moduleSideEffects: (id: string) =>
          !/node_modules[\\/]@rc-component[\\/](form|async-validator)[\\/]/.test(id),
      },
    },
  },
});
