/**
 * Import rules checked by `npm test` (docs/architecture.md, "Packages"): no cycles, and the layers
 * point one way — validators ← db ← core ← api ← server, the web app on api types and validators only.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'an import cycle: give the shared concept one home so imports run one way',
      from: {},
      to: { circular: true },
    },
    {
      name: 'validators-only-zod',
      severity: 'error',
      comment: 'the shared schemas depend on zod alone (forms, routers and tests all use them)',
      from: { path: '^packages/validators/src' },
      to: { path: '^(packages|apps)/', pathNot: '^packages/validators/src' },
    },
    {
      name: 'core-below-api',
      severity: 'error',
      comment: 'domain logic knows nothing of tRPC, HTTP or the apps',
      from: { path: '^packages/(core|db)/src' },
      to: { path: '^(packages/api|apps)/' },
    },
    {
      name: 'core-auth-below-users',
      severity: 'error',
      comment:
        'auth (credentials, sessions, wallets) sits below users (accounts, profiles, admin): users may use auth, never the reverse; user rows both need live in core/accounts',
      from: { path: '^packages/core/src/auth/' },
      to: { path: '^packages/core/src/users/' },
    },
    {
      name: 'core-auth-methods-apart',
      severity: 'error',
      comment:
        'each sign-in method is one folder of core/auth (password/, siwe/): a method uses the shared session code at auth/ top level, never another method (docs/accounts.md, "Sign-in methods")',
      from: { path: '^packages/core/src/auth/([^/]+)/' },
      to: { path: '^packages/core/src/auth/[^/]+/', pathNot: '^packages/core/src/auth/$1/' },
    },
    {
      name: 'core-accounts-below-auth-and-users',
      severity: 'error',
      comment: 'core/accounts (user row lookups and views) is the lower module auth and users share',
      from: { path: '^packages/core/src/accounts/' },
      to: { path: '^packages/core/src/(auth|users)/' },
    },
    {
      name: 'db-below-core',
      severity: 'error',
      from: { path: '^packages/db/src' },
      to: { path: '^packages/core/' },
    },
    {
      name: 'api-below-apps',
      severity: 'error',
      from: { path: '^packages/api/src' },
      to: { path: '^apps/' },
    },
    {
      name: 'web-not-server-side',
      severity: 'error',
      comment: 'the web app talks to the API over tRPC; it never imports core, db or the server',
      from: { path: '^apps/web/' },
      to: { path: '^(packages/(core|db)|apps/server)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|\\.next[^/]*|dist)/' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'types', 'default'] },
  },
};
