import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Install truth: the README promises Node ≥ 20.19 (the root package.json's `engines`). Every package the
 * lockfile installs must accept the oldest Node that promise covers, so `npm ci` on it prints no EBADENGINE
 * warning; a dependency bumped to a release that wants Node 22 fails here, not on a township's server.
 * (semver is npm's own range reader, installed with the tools; read, not declared, for this check only.)
 */
const require = createRequire(import.meta.url);
const semver = require('semver') as {
  satisfies(v: string, range: string): boolean;
  minVersion(r: string): { version: string };
};
const root = join(import.meta.dirname, '../../../..');

type Lock = { packages: Record<string, { version?: string; engines?: Record<string, string> | string[] }> };

describe('install truth', () => {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string } };
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as Lock;

  it('the README and package.json promise the same Node', () => {
    expect(pkg.engines.node).toBe('>=20.19');
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toContain('Node.js ≥ 20.19');
  });

  it('every locked package accepts the oldest promised Node, and the newest 20.x', () => {
    const oldest = semver.minVersion(pkg.engines.node).version;
    const refused: string[] = [];
    for (const node of [oldest, '20.20.0']) {
      for (const [path, entry] of Object.entries(lock.packages)) {
        const range = !entry.engines || Array.isArray(entry.engines) ? undefined : entry.engines.node;
        if (path && range && !semver.satisfies(node, range))
          refused.push(`${path}@${entry.version} wants node ${range} (not ${node})`);
      }
    }
    expect(refused).toEqual([]);
  });
});
