// Three projects over one swc transform:
// - unit: specs beside the code (PGlite-backed repository specs among them) and the deployment's files;
// - embedded: the behaviour suite (test/e2e), every spec once, on the in-process transport with PGlite;
// - distributed: the behaviour seams over NATS and real PostgreSQL — the e2e specs tagged
//   `@distributed` in their header comment (the seams they cross);
// - infrastructure: below the HTTP layer — test/distributed (transport and database) and
//   test/processes (apps as processes from dist/, built once by its global setup, killed and cut
//   off from NATS and PostgreSQL); run one file at a time beside the distributed project.
const fs = require('node:fs');
const path = require('node:path');
const { pathsToModuleNameMapper } = require('./tools/jest-paths');

const swc = JSON.parse(fs.readFileSync(path.join(__dirname, '.swcrc.json'), 'utf8'));
delete swc.$comment;
// ESM-only packages that jest (CommonJS mode) must transform.
const esmPackages = ['@noble', '@turnkey', '@simplewebauthn', '@peculiar', 'uuid', 'bs58', 'bs58check', 'base-x', 'cbor-x', 'content-disposition'];

/** The end-to-end specs that also run in distributed mode: a header line ` * @distributed <seams>`. */
function taggedDistributed() {
  const dir = path.join(__dirname, 'test', 'e2e');
  return fs
    .readdirSync(dir)
    .filter((file) => file.endsWith('.e2e-spec.ts') && /^ \* @distributed\b/m.test(fs.readFileSync(path.join(dir, file), 'utf8')))
    .map((file) => `<rootDir>/test/e2e/${file}`);
}

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
      testMatch: taggedDistributed(),
      globals: { STACK_MODE: 'distributed' },
    },
    {
      ...shared,
      displayName: 'infrastructure',
      testMatch: ['<rootDir>/test/distributed/**/*.e2e-spec.ts', '<rootDir>/test/processes/**/*.e2e-spec.ts'],
      globals: { STACK_MODE: 'distributed' },
      globalSetup: '<rootDir>/test/processes/global-setup.js',
    },
  ],
};
