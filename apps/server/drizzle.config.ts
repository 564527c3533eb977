import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  // platform tables, and each business module's own tables
  schema: ['./src/platform/db/schema.ts', './src/modules/*/tables.ts'],
  out: './drizzle',
});
