import type { NextConfig } from 'next';

const config: NextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // NEXT_DIST_DIR: another build directory (parallel builds and e2e runs in one checkout); `next start` reads the same
  distDir: process.env.NEXT_DIST_DIR || '.next',
  // workspace packages export TypeScript source
  transpilePackages: ['@plenum/validators'],
  // types are checked by `pnpm typecheck` (tsc) across the workspace; the build does not repeat it
  typescript: { ignoreBuildErrors: true },
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

export default config;
