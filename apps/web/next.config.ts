import type { NextConfig } from 'next';
import createNextIntlPlugin from 'next-intl/plugin';

const config: NextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // NEXT_DIST_DIR: another build directory (parallel builds and e2e runs in one checkout); `next start` reads the same
  distDir: process.env.NEXT_DIST_DIR || '.next',
  // workspace packages export TypeScript source
  transpilePackages: ['@plenum/validators'],
  // types are checked by `pnpm typecheck` (tsc) across the workspace; the build does not repeat it
  typescript: { ignoreBuildErrors: true },
  // the message files are read at request time (i18n/request.ts): ship them with the server build
  outputFileTracingIncludes: { '/**': ['./messages/**/*.json'] },
  async headers() {
    return [
      {
        source: '/:path*',
        headers: [
          { key: 'X-Content-Type-Options', value: 'nosniff' },
          { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
          { key: 'X-Frame-Options', value: 'DENY' },
        ],
      },
    ];
  },
};

// translations without locale routing: i18n/request.ts picks the language per request
export default createNextIntlPlugin('./i18n/request.ts')(config);
