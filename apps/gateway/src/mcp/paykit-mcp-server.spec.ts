import { catalogOf, fillPath, OpenApiDocument, searchCatalog } from './paykit-mcp-server';

const DOCUMENT: OpenApiDocument = {
  paths: {
    '/customers': { get: { summary: 'List customers', tags: ['Customers'] }, post: { summary: 'Create a customer', tags: ['Customers'] } },
    '/quotes': { post: { summary: 'Create a quote', tags: ['Quotes'], description: 'Locks an exchange rate' } },
    '/quotes/{quoteId}/execute': { post: { summary: 'Execute a quote', tags: ['Quotes'] } },
    '/sandbox/internal-accounts/{accountId}/fund': { post: { summary: 'Fund an internal account', tags: ['Sandbox'] } },
  },
};

describe('Paykit MCP server', () => {
  describe(catalogOf.name, () => {
    it('names every operation as the document does: METHOD /path/{template}', () => {
      expect(catalogOf(DOCUMENT).map((operation) => operation.name)).toEqual([
        'GET /customers',
        'POST /customers',
        'POST /quotes',
        'POST /quotes/{quoteId}/execute',
        'POST /sandbox/internal-accounts/{accountId}/fund',
      ]);
    });
  });

  describe(searchCatalog.name, () => {
    const catalog = catalogOf(DOCUMENT);
    it.each([
      ['execute quote', 'POST /quotes/{quoteId}/execute'],
      ['fund account', 'POST /sandbox/internal-accounts/{accountId}/fund'],
      ['exchange rate', 'POST /quotes'],
      ['customers', 'GET /customers'],
    ])('"%s" finds %s first', (query, first) => {
      expect(searchCatalog(catalog, query)[0].name).toBe(first);
    });

    it('finds nothing for words nowhere in the document, and honours the limit', () => {
      expect(searchCatalog(catalog, 'zebra')).toEqual([]);
      expect(searchCatalog(catalog, 'quote', 1)).toHaveLength(1);
    });
  });

  describe(fillPath.name, () => {
    it('fills and escapes path parameters, and names the missing ones', () => {
      expect(fillPath('/quotes/{quoteId}/execute', { quoteId: 'Quote:a/b' })).toEqual({ path: '/quotes/Quote%3Aa%2Fb/execute', missing: [] });
      expect(fillPath('/cards/{id}/simulate/{kind}', { id: 'Card:1' }).missing).toEqual(['kind']);
    });
  });
});
