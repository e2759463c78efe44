// Type-checked typescript-eslint, plus Nx module boundaries: apps talk through libs only, and
// the libs form layers where each imports only the layers below it.
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');
const nx = require('@nx/eslint-plugin');
const paykit = require('./tools/eslint-rules');

// The lib layers, lowest first (`layer:<name>` tags in each lib's project.json). A lib may
// import only libs of lower layers: wire types know nothing of transports, transports nothing of
// databases. runtime (configuration, logging, starting an app) sits below persistence because
// the data source, scheduler and outbox relay read its configuration and readiness gate.
const LIB_LAYERS = ['errors', 'validation', 'contracts', 'transport', 'runtime', 'persistence'];
// The house rules the linter keeps (tools/eslint-rules.js; docs/architecture.md, "Rules the linter
// keeps"). Each is on in production code and off in the named plumbing listed beside it.
const PRODUCTION = ['apps/*/src/**/*.ts', 'apps/*/src/**/*.tsx', 'libs/*/src/**/*.ts'];
const NOT_TESTS = ['**/*.spec.ts', '**/*.e2e-spec.ts', 'libs/testing/**'];
const houseRules = [
  {
    // Amounts: wire numbers and column text become bigint through the amount helpers only.
    files: PRODUCTION,
    ignores: [
      ...NOT_TESTS,
      'libs/contracts/src/amounts.ts', // the helpers: amountFromWire, amountFromDigits, basisPointsFromWire, decimalScale
      'libs/persistence/src/amount-column.ts', // the helpers: amountFromColumn for raw rows and entity columns
      'libs/persistence/src/outbox/outbox-relay.ts', // event sequence numbers (bigint column text), not amounts
      'apps/webhooks/src/deliveries/deliveries.service.ts', // the same event sequence numbers, checked for range
      'apps/external-accounts/src/external-accounts/wallet-signatures.ts', // base58 and byte strings as integers, not amounts
    ],
    plugins: { paykit },
    rules: { 'paykit/no-raw-bigint': 'error' },
  },
  {
    // Time: apps read the one clock (Clock: now() for the platform's time, Clock.real() for plumbing).
    files: ['apps/*/src/**/*.ts', 'apps/*/src/**/*.tsx'],
    ignores: [
      ...NOT_TESTS,
      'apps/console/**', // browser code: no service, no clock
      'apps/embedded/src/main.ts', // the process's start-up time in its ready log line
    ],
    plugins: { paykit },
    rules: { 'paykit/no-wall-clock': 'error' },
  },
  {
    // SQL text: in repositories and migrations (libs/persistence and libs/runtime are plumbing throughout).
    files: PRODUCTION,
    ignores: [
      ...NOT_TESTS,
      '**/*.repository.ts',
      '**/migrations/**',
      'libs/persistence/**',
      'libs/runtime/**',
      'apps/gateway/src/auth/auth-invalidations.ts', // LISTEN/NOTIFY of token changes between gateway replicas
      'apps/gateway/src/rate-limits/rate-limit-store.ts', // the rate-limit windows' store (a repository by another name)
      'apps/webhooks/src/deliveries/delivery-faults.ts', // the sandbox's delivery-fault store (a repository by another name)
      'apps/webhooks/src/inbox/delivery-backlog.gauge.ts', // a metric: the due backlog's size
      'apps/payments/src/client-retries.ts', // the fingerprint's advisory lock
      'apps/payments/src/quotes/quote-ledger.ts', // composes a quote step's one statement with the ledger's moves
    ],
    plugins: { paykit },
    rules: { 'paykit/no-raw-query': 'error' },
  },
];

const layerConstraints = LIB_LAYERS.map((layer, index) => ({
  sourceTag: `layer:${layer}`,
  onlyDependOnLibsWithTags: LIB_LAYERS.slice(0, index).map((lower) => `layer:${lower}`),
}));

module.exports = tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'tmp/**', '.data/**', 'coverage/**', '**/*.js', '!tools/**/*.js', 'test/reference-client/generated/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    // .tsx: the console (apps/console), type-checked through its own tsconfig.json (DOM, Preact JSX).
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: __dirname } },
    plugins: { '@nx': nx },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-extraneous-class': 'off',
      '@nx/enforce-module-boundaries': [
        'error',
        {
          allow: [],
          depConstraints: [
            { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:composition', onlyDependOnLibsWithTags: ['type:lib', 'type:app'] },
            ...layerConstraints,
          ],
        },
      ],
    },
  },
  ...houseRules,
  {
    // Tests drive the product through its composition root and read loosely typed JSON.
    files: ['test/**/*.ts', '**/*.spec.ts', '**/*.e2e-spec.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/unbound-method': 'off',
      '@nx/enforce-module-boundaries': 'off',
    },
  },
  {
    // The composition root wires every app into one process (embedded mode); that is its job.
    files: ['apps/embedded/**/*.ts'],
    rules: { '@nx/enforce-module-boundaries': 'off' },
  },
  {
    files: ['tools/**/*.js'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // Preact event handlers may be async: the console's handlers report their own failures.
    files: ['apps/console/**/*.tsx'],
    rules: { '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }] },
  },
  {
    // The console's Vite configuration (an ES module Vite loads itself).
    files: ['apps/console/vite.config.mjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { sourceType: 'module', globals: { URL: 'readonly' } },
  },
  {
    files: ['tools/**/*.js'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', module: 'writable', process: 'readonly', __dirname: 'readonly', console: 'readonly', Buffer: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
