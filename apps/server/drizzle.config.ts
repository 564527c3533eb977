import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  // platform tables, every table derived from a definition, and the modules' hand-made tables
  schema: [
    './src/platform/db/schema.ts',
    './src/platform/db/derived-schema.cjs',
    './src/modules/*/tables.ts',
  ],
  out: './drizzle',
});
