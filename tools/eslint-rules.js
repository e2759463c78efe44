// The house rules the linter keeps (issue 39; docs/architecture.md, "Rules the linter keeps").
// Three small rules rather than one `no-restricted-syntax` list: each is switched on for its own
// files and off for its own named plumbing in eslint.config.js, and ESLint replaces (not merges) a
// rule's options from one config block to the next.

/** `callee` is `<name>.<property>` or `this.<name>.<property>` (or `x.<name>.<property>`). */
function memberOf(callee, names, property) {
  if (callee.type !== 'MemberExpression' || callee.computed || callee.property.type !== 'Identifier' || callee.property.name !== property) return false;
  const object = callee.object;
  if (object.type === 'Identifier') return names.includes(object.name);
  return object.type === 'MemberExpression' && !object.computed && object.property.type === 'Identifier' && names.includes(object.property.name);
}

const noRawBigint = {
  meta: {
    type: 'problem',
    docs: { description: 'Amounts cross into bigint through the amount helpers of @paykit/contracts, not BigInt(...)' },
    messages: {
      raw: 'BigInt(...) outside the amount helpers: use amountFromWire / amountFromDigits / basisPointsFromWire / decimalScale (@paykit/contracts) or amountFromColumn (@paykit/persistence).',
    },
    schema: [],
  },
  create(context) {
    return {
      CallExpression(node) {
        if (node.callee.type === 'Identifier' && node.callee.name === 'BigInt') context.report({ node, messageId: 'raw' });
      },
    };
  },
};

const noWallClock = {
  meta: {
    type: 'problem',
    docs: { description: 'Time is read from the one clock (Clock of @paykit/persistence), not new Date() / Date.now()' },
    messages: {
      wall: '{{what}} outside the clock: inject Clock and read clock.now() (the platform’s time), or Clock.real() for plumbing that keeps real time.',
    },
    schema: [],
  },
  create(context) {
    return {
      NewExpression(node) {
        if (node.callee.type === 'Identifier' && node.callee.name === 'Date' && node.arguments.length === 0)
          context.report({ node, messageId: 'wall', data: { what: 'new Date()' } });
      },
      CallExpression(node) {
        if (memberOf(node.callee, ['Date'], 'now')) context.report({ node, messageId: 'wall', data: { what: 'Date.now()' } });
      },
    };
  },
};

const noRawQuery = {
  meta: {
    type: 'problem',
    docs: { description: 'SQL text is sent from repositories (and migrations), not from services or use cases' },
    messages: {
      query: '{{what}}.query(...) outside a repository: put the statement behind a repository method.',
    },
    schema: [],
  },
  create(context) {
    return {
      CallExpression(node) {
        for (const name of ['manager', 'dataSource']) {
          if (memberOf(node.callee, [name], 'query')) context.report({ node, messageId: 'query', data: { what: name } });
        }
      },
    };
  },
};

module.exports = { rules: { 'no-raw-bigint': noRawBigint, 'no-wall-clock': noWallClock, 'no-raw-query': noRawQuery } };
