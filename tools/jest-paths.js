// Maps the tsconfig path aliases (@paykit/*) to source files for jest.
const fs = require('node:fs');
const path = require('node:path');

function pathsToModuleNameMapper(root) {
  const { compilerOptions } = JSON.parse(fs.readFileSync(path.join(root, 'tsconfig.base.json'), 'utf8'));
  const mapper = {};
  for (const [alias, [target]] of Object.entries(compilerOptions.paths)) {
    mapper[`^${alias.replace('/', '\\/')}$`] = `<rootDir>/${target}`;
  }
  return mapper;
}

module.exports = { pathsToModuleNameMapper };
