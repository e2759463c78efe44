// The processes suite runs apps as processes from dist/: it is built once, here, before any
// jest worker starts (two workers building at once would write the same files).
const { execFileSync } = require('node:child_process');
const path = require('node:path');

module.exports = async function buildOnce() {
  const root = path.join(__dirname, '..', '..');
  execFileSync(process.execPath, [path.join(root, 'tools', 'build.js')], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
};
