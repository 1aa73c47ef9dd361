import { defineConfig } from 'vitest/config';

// Unit tests of the web app's pure client logic (lib/), in Node. The browser suite has its own
// runner (Playwright, playwright.config.ts at the repository root) and runs only through `test:e2e`.
export default defineConfig({
  test: {
    include: ['lib/**/*.test.ts'],
    exclude: ['e2e/**', 'node_modules/**', '.next/**'],
    environment: 'node',
  },
});
