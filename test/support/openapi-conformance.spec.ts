import { ResponseConformance } from './openapi-conformance';

const document = {
  servers: [{ url: '/2025-10-13' }],
  paths: {
    '/things/{id}': {
      get: {
        responses: {
          '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } },
          '404': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
        },
      },
      delete: { responses: { '204': { description: 'gone' } } },
    },
    '/things/special': { get: { responses: { '200': { content: { 'application/json': { schema: { type: 'object', required: ['special'] } } } } } } },
  },
  components: {
    schemas: {
      Thing: {
        type: 'object',
        required: ['id', 'state', 'createdAt'],
        properties: {
          id: { type: 'string' },
          state: { type: 'string', enum: ['ON', 'OFF'] },
          createdAt: { type: 'string', format: 'date-time' },
          note: { type: 'string', nullable: true },
          amount: { type: 'integer', format: 'int64', minimum: 0, exclusiveMinimum: true },
        },
      },
      Error: { type: 'object', required: ['status', 'code', 'message'], properties: { status: { type: 'integer' }, code: { type: 'string' }, message: { type: 'string' } } },
    },
  },
};

describe(ResponseConformance.name, () => {
  const conformance = new ResponseConformance(document, '/2025-10-13');
  const json = 'application/json; charset=utf-8';
  const thing = { id: 't1', state: 'ON', createdAt: '2025-10-13T12:00:00.000Z', note: null, amount: 5 };

  describe('check', () => {
    it('accepts a body that matches its status schema, nullable fields included', () => {
      expect(conformance.check('GET', '/2025-10-13/things/t1?x=1', 200, json, JSON.stringify(thing))).toBeUndefined();
      expect(conformance.check('DELETE', '/2025-10-13/things/t1', 204, null, '')).toBeUndefined();
    });

    it.each<[string, Record<string, unknown>, RegExp]>([
      [
        'a missing required property',
        { ...thing, createdAt: undefined },
        /\(body\) must have required property 'createdAt' \(schema path served-openapi.json#\/components\/schemas\/Thing\/required\)/,
      ],
      ['a value outside the enum', { ...thing, state: 'MAYBE' }, /\/state must be equal to one of the allowed values \["ON","OFF"\]/],
      ['a malformed date-time', { ...thing, createdAt: 'yesterday' }, /\/createdAt must match format "date-time"/],
      ['an amount at the exclusive minimum', { ...thing, amount: 0 }, /\/amount must be > 0/],
    ])('names the operation, status and schema path for %s', (_label, body, message) => {
      const failure = conformance.check('GET', '/2025-10-13/things/t1', 200, json, JSON.stringify(body));
      expect(failure).toMatch(/^GET \/things\/\{id\} answered 200 with a body that does not match/);
      expect(failure).toMatch(message);
    });

    it('refuses a status the operation does not document', () => {
      expect(conformance.check('GET', '/2025-10-13/things/t1', 409, json, '{}')).toMatch(/GET \/things\/\{id\} answered 409, which the served OpenAPI document does not list/);
    });

    it('prefers the literal route over a templated one', () => {
      expect(conformance.check('GET', '/2025-10-13/things/special', 200, json, '{}')).toMatch(/GET \/things\/special answered 200.*\n.*required property 'special'/);
    });

    it('lets unknown routes answer 404/405 and refuses any other status for them', () => {
      expect(conformance.check('GET', '/2025-10-13/nothing', 404, json, '{}')).toBeUndefined();
      expect(conformance.check('GET', '/2025-10-13/nothing', 200, json, '{}')).toMatch(/no such operation/);
    });

    it('refuses a body on a documented empty answer', () => {
      expect(conformance.check('DELETE', '/2025-10-13/things/t1', 204, json, '{"x":1}')).toMatch(/describes none/);
    });
  });
});
