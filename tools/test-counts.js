// Counts tests per service from jest's JSON reports (`jest --json --outputFile=...`), one column
// per report: `node tools/test-counts.js [<label>=<report.json> ...]`; without arguments, the
// reports of the last `npm test` (tmp/test-reports/*.json, labelled by their projects). A spec belongs to the service
// its path names (apps/<service>/, test/e2e/<service>-*.e2e-spec.ts); cross-cutting end-to-end
// specs (auth, limits, docs, fuzz, logs, clock) count as the gateway's, the edge they test.
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const E2E_SERVICES = [
  [/^(customers)/, 'customers'],
  [/^(external-accounts)/, 'external-accounts'],
  [/^(payments|quotes|invitations)/, 'payments'],
  [/^(wallet-auth)/, 'wallet-auth'],
  [/^(cards)/, 'cards'],
  [/^(webhooks)/, 'webhooks'],
];

function areaOf(file) {
  // Reports of another checkout (a fresh clone, CI) count the same: the path from its own root.
  const relative = file.match(/\/((?:apps|libs|tools|test)\/.*)$/)?.[1] ?? path.relative(ROOT, file);
  const [top, second] = relative.split(path.sep);
  if (top === 'apps') return [second, 'unit'];
  if (top === 'libs') return [`libs/${second}`, 'unit'];
  if (top === 'tools') return ['tools', 'unit'];
  if (top === 'test' && second === 'e2e') {
    const name = path.basename(relative);
    return [E2E_SERVICES.find(([pattern]) => pattern.test(name))?.[1] ?? 'gateway', 'e2e'];
  }
  if (top === 'test' && (second === 'distributed' || second === 'processes')) return ['transport, database, processes', 'e2e'];
  return [`test/${second}`, 'unit'];
}

const REPORTS = path.join(ROOT, 'tmp', 'test-reports');
const given = process.argv.slice(2);
const sources = given.length > 0 ? given : fs.readdirSync(REPORTS).map((file) => `${path.basename(file, '.json')}=${path.join(REPORTS, file)}`);
const columns = sources.map((argument) => {
  const [label, file] = argument.split('=');
  return { label, report: JSON.parse(fs.readFileSync(file, 'utf8')) };
});
const table = new Map();
for (const { label, report } of columns) {
  for (const result of report.testResults) {
    const [area, kind] = areaOf(result.name);
    const row = table.get(area) ?? {};
    const key = `${label} ${kind}`;
    row[key] = (row[key] ?? 0) + result.assertionResults.filter((test) => test.status === 'passed').length;
    table.set(area, row);
  }
}
const keys = [...new Set([...table.values()].flatMap((row) => Object.keys(row)))].sort();
const lines = [['area', ...keys], ...[...table.keys()].sort().map((area) => [area, ...keys.map((key) => String(table.get(area)[key] ?? 0))])];
lines.push(['total', ...keys.map((key) => String([...table.values()].reduce((sum, row) => sum + (row[key] ?? 0), 0)))]);
const widths = lines[0].map((_, index) => Math.max(...lines.map((line) => line[index].length)));
for (const line of lines) process.stdout.write(`${line.map((cell, index) => (index === 0 ? cell.padEnd(widths[index]) : cell.padStart(widths[index]))).join('  ')}\n`);
