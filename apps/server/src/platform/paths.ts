import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The server package's root, whether running from src (tsx, vitest) or from the bundled dist/main.js. */
function findServerRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && JSON.parse(readFileSync(pkg, 'utf8')).name === '@smart/server') return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error('cannot find the @smart/server package root');
    dir = up;
  }
}

export const serverRoot = findServerRoot();
export const migrationsDir = join(serverRoot, 'drizzle');
export const defaultWebDist = join(serverRoot, '..', 'web', 'dist');
