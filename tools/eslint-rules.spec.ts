import { Rule, RuleTester } from 'eslint';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS module that eslint.config.js loads too
const { rules } = require('./eslint-rules') as { rules: Record<string, Rule.RuleModule> };

const tester = new RuleTester({ languageOptions: { ecmaVersion: 2022, sourceType: 'module' } });

tester.run('no-raw-bigint', rules['no-raw-bigint'], {
  valid: ['const a = amountFromWire(body.amount);', 'const b = 10n * scale;', 'const c = x.BigInt(1);'],
  invalid: [{ code: 'const a = BigInt(body.amount);', errors: [{ messageId: 'raw' }] }],
});

tester.run('no-wall-clock', rules['no-wall-clock'], {
  valid: ['const a = clock.now();', 'const b = new Date(row.created_at);', 'const c = Clock.real();'],
  invalid: [
    { code: 'const a = new Date();', errors: [{ messageId: 'wall' }] },
    { code: 'const b = Date.now() + 1000;', errors: [{ messageId: 'wall' }] },
  ],
});

tester.run('no-raw-query', rules['no-raw-query'], {
  valid: ['repository.query(sql);', 'manager.findOne(Entity, {});', 'queryRunner.query(sql);'],
  invalid: [
    { code: 'manager.query(sql, []);', errors: [{ messageId: 'query' }] },
    { code: 'this.dataSource.query(sql);', errors: [{ messageId: 'query' }] },
  ],
});
