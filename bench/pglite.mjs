// Opens a PGlite folder of the server's the way the server does: its PGlite version and the extensions its
// migrations create (apps/server/src/platform/db/index.ts, PGLITE_EXTENSIONS). Nobody else may have it open.
import { createRequire } from 'node:module';

const requireServer = createRequire(new URL('../apps/server/package.json', import.meta.url));

export function openPglite(dir) {
  const { PGlite } = requireServer('@electric-sql/pglite');
  const { pg_trgm } = requireServer('@electric-sql/pglite/contrib/pg_trgm');
  return PGlite.create(dir, { extensions: { pg_trgm } });
}
