import { CursorKey, decodeCursor, encodeCursor, idCursor, pageLimit, readCursor, toPage } from './pagination';

const CARD_ID = 'Card:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69';
const cursorOf = (key: string): string => Buffer.from(key, 'utf8').toString('base64url');
const rows = ['Card:0190f1c2-7a6b-7cc1-9a2e-000000000003', 'Card:0190f1c2-7a6b-7cc1-9a2e-000000000002', 'Card:0190f1c2-7a6b-7cc1-9a2e-000000000001'].map((id) => ({ id }));

describe('pagination', () => {
  describe(readCursor.name, () => {
    it('reads back what encodeCursor wrote, for any of a list of several kinds', () => {
      const key = idCursor('Transaction', 'CardTransaction');
      const card = 'CardTransaction:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69';
      expect(readCursor(encodeCursor(card), key)).toBe(card);
      expect(encodeCursor(card)).toBe(cursorOf(card));
    });

    it('answers undefined for a cursor the list never issued (decodeCursor refuses it)', () => {
      expect(readCursor(encodeCursor(CARD_ID), idCursor('Transaction', 'CardTransaction'))).toBeUndefined();
      expect(readCursor('bm9wZQ', idCursor('Card'))).toBeUndefined();
    });
  });

  describe(pageLimit.name, () => {
    it('defaults to 20 and keeps a given limit', () => {
      expect(pageLimit(undefined)).toBe(20);
      expect(pageLimit(5)).toBe(5);
    });
  });

  describe(toPage.name, () => {
    it('cuts the extra row and points the next cursor at the last row kept', () => {
      const page = toPage(rows, 2, (row) => row.id.slice(-1), idCursor('Card'));
      expect(page).toEqual({ data: ['3', '2'], hasMore: true, nextCursor: cursorOf(rows[1].id) });
    });

    it('answers the last page without a cursor', () => {
      expect(toPage(rows, 3, (row) => row.id, idCursor('Card'))).toEqual({ data: rows.map((row) => row.id), hasMore: false });
    });
  });

  describe(decodeCursor.name, () => {
    it('reads back the key a page handed out', () => {
      expect(decodeCursor(cursorOf(CARD_ID), idCursor('Card'))).toBe(CARD_ID);
      expect(decodeCursor(undefined, idCursor('Card'))).toBeUndefined();
    });

    it.each([
      ['another type of id', cursorOf(CARD_ID.replace('Card', 'Customer'))],
      ['an id that is not a uuid', cursorOf('Card:123')],
      ['no key at all', 'bm90LWFuLWlk'],
      ['an empty cursor', ''],
    ])('refuses %s as an invalid cursor field', (_case, cursor) => {
      expect(() => decodeCursor(cursor, idCursor('Card'))).toThrow(
        expect.objectContaining({ code: 'INVALID_INPUT', details: { errors: [expect.objectContaining({ field: 'cursor' })] } }),
      );
    });

    it('lets a list key its cursor by something other than an id', () => {
      const bySequence: CursorKey<{ seq: string }> = { encode: (row) => `s${row.seq}`, decode: (key) => /^s(\d+)$/.exec(key)?.[1] };
      const page = toPage([{ seq: '9' }, { seq: '8' }], 1, (row) => row.seq, bySequence);
      expect(decodeCursor(page.nextCursor, bySequence)).toBe('9');
    });
  });
});
