// Three projects over one swc transform: unit specs beside the code, and the end-to-end suite
// (test/e2e) run twice — once on the in-process transport with PGlite, once on NATS + PostgreSQL.
const fs = require('node:fs');
const path = require('node:path');
const { pathsToModuleNameMapper } = require('./tools/jest-paths');

const swc = JSON.parse(fs.readFileSync(path.join(__dirname, '.swcrc.json'), 'utf8'));
delete swc.$comment;
// ESM-only packages that jest (CommonJS mode) must transform.
const esmPackages = ['@noble', '@turnkey', '@simplewebauthn', '@peculiar', 'uuid', 'bs58', 'bs58check', 'base-x', 'cbor-x', 'content-disposition'];

const shared = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: { '^.+\\.(t|j|mj)s$': ['@swc/jest', { ...swc, swcrc: false }] },
  // Judged on the innermost node_modules segment, so nested ESM dependencies are transformed too.
  transformIgnorePatterns: [`/node_modules/(?!.*/node_modules/)(?!(${esmPackages.join('|')})/)`],
  moduleNameMapper: pathsToModuleNameMapper(__dirname),
  setupFiles: ['<rootDir>/libs/testing/src/jest-setup.ts'],
};

module.exports = {
  // Generous: a hook that starts a whole stack (migrations of every service) can take over 30 s
  // on a busy 2-core machine. Tests wait on outcomes (`eventually`), never on this.
  testTimeout: 120000,
  projects: [
    // test/deploy: the deployment's files (Kubernetes manifests, Dockerfile), checked offline.
    {
      ...shared,
      displayName: 'unit',
      testMatch: [
        '<rootDir>/apps/**/*.spec.ts',
        '<rootDir>/libs/**/*.spec.ts',
        '<rootDir>/tools/**/*.spec.ts',
        '<rootDir>/test/deploy/**/*.spec.ts',
        '<rootDir>/test/support/**/*.spec.ts',
      ],
    },
    { ...shared, displayName: 'embedded', testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'], globals: { STACK_MODE: 'embedded' } },
    {
      ...shared,
      displayName: 'distributed',
      testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts', '<rootDir>/test/distributed/**/*.e2e-spec.ts'],
      globals: { STACK_MODE: 'distributed' },
    },
  ],
};
