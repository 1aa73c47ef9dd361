import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './src/schema/index.ts',
  // migrations live at the repository's top level (docs/architecture.md, "Packages")
  out: '../../drizzle',
});
