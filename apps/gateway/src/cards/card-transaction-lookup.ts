import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, getSchemaPath } from '@nestjs/swagger';
import {
  CallerContext,
  CARD_TRANSACTION_STATUSES,
  CARDS_SUBJECTS,
  CardTransaction,
  CardTransactionStatus,
  DEFAULT_PAGE_LIMIT,
  ListTransactionsQuery,
  Page,
  Transaction,
} from '@paykit/contracts';
import { encodeCursor, idCursor, readCursor } from '@paykit/persistence';
import { ServiceClient } from '@paykit/transport';
import { TransactionResponseDto } from '../payments/dto/transaction.response';
import { CardTransactionResponseDto } from './dto/card.response';

/**
 * Card transactions are transactions too (`type: CARD`): `GET /transactions/{id}` answers them,
 * asking the cards service, which owns them, for a `CardTransaction:` id.
 */
export function isCardTransactionId(id: string): boolean {
  return id.startsWith('CardTransaction:');
}

export function getCardTransaction(services: ServiceClient, cardTransactionId: string, caller: CallerContext): Promise<CardTransaction> {
  return services.request(CARDS_SUBJECTS.getCardTransaction, { cardTransactionId }, caller);
}

/** The 200 of a transaction read: a payment transaction or a card transaction (told apart by `type`). */
export function ApiTransactionOrCardTransactionResponse(): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ApiExtraModels(TransactionResponseDto, CardTransactionResponseDto),
    ApiOkResponse({
      description: 'The transaction: a payment (INCOMING, OUTGOING) or a card transaction (CARD)',
      schema: { oneOf: [{ $ref: getSchemaPath(TransactionResponseDto) }, { $ref: getSchemaPath(CardTransactionResponseDto) }] },
    }),
  );
}

/** The 200 of the transaction list: payments and card transactions, newest first. */
export function ApiTransactionListWithCardsResponse(): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ApiExtraModels(TransactionResponseDto, CardTransactionResponseDto),
    ApiOkResponse({
      description: 'Payments (INCOMING, OUTGOING) and card transactions (CARD), newest first',
      schema: {
        type: 'object',
        required: ['data', 'hasMore', 'totalCount'],
        properties: {
          data: { type: 'array', items: { oneOf: [{ $ref: getSchemaPath(TransactionResponseDto) }, { $ref: getSchemaPath(CardTransactionResponseDto) }] } },
          hasMore: { type: 'boolean', description: 'Whether another page follows' },
          nextCursor: { type: 'string', description: 'Pass as `cursor` for the next page' },
          totalCount: { type: 'integer', description: 'Transactions matching the filters, all pages (payments and card transactions)' },
        },
      },
    }),
  );
}

type PaymentsPage = (cursor: string | undefined, limit: number) => Promise<Page<Transaction>>;

/**
 * The transaction list's filters this merge reads: those of `ListTransactionsQuery`, and the
 * reference's others when the query carries them (platform customer id, account identifiers,
 * reference, date range, sort order).
 */
export type TransactionListFilters = Pick<ListTransactionsQuery, 'limit' | 'cursor' | 'accountId' | 'customerId' | 'status' | 'type' | 'createdAfter' | 'createdBefore'> & {
  platformCustomerId?: string;
  accountIdentifier?: string;
  senderAccountIdentifier?: string;
  receiverAccountIdentifier?: string;
  reference?: string;
  startDate?: string;
  endDate?: string;
  sortOrder?: 'asc' | 'desc';
};

/** The merged list's cursor: the last id shown, of either kind, in the format of every list (libs/persistence pagination). */
const TRANSACTION_LIST_CURSOR = idCursor('Transaction', 'CardTransaction');

/**
 * `GET /transactions` lists card transactions too (`type: CARD`): one page from each owner, merged
 * in the list's order. Ids are UUIDv7, so their uuid part orders both kinds by creation; the
 * page's cursor is the last id shown, and each owner's next page starts past that uuid.
 *
 * Which card transactions a filter keeps: a `type` (INCOMING, OUTGOING), a `reference` or a
 * receiver account leaves them all out (none has such); a `status` keeps the same-named card
 * status only; an account (any of `accountId`, `accountIdentifier`, `senderAccountIdentifier`)
 * is the funding source; a `customerId` that is not a customer's (the platform's own) keeps none.
 */
export async function listWithCardTransactions(
  services: ServiceClient,
  query: TransactionListFilters,
  caller: CallerContext,
  listPayments: PaymentsPage,
): Promise<Page<Transaction | CardTransaction>> {
  const limit = query.limit ?? DEFAULT_PAGE_LIMIT;
  const lastShown = query.cursor === undefined ? undefined : readCursor(query.cursor, TRANSACTION_LIST_CURSOR);
  // Not a cursor of this list: payments refuses it with the field named.
  if (query.cursor !== undefined && lastShown === undefined) return listPayments(query.cursor, limit);
  const past = lastShown === undefined ? undefined : uuidOf(lastShown);
  const ascending = query.sortOrder === 'asc';
  const status = query.status as string | undefined;
  const accounts = [...new Set([query.accountId, query.accountIdentifier, query.senderAccountIdentifier].filter((a): a is string => a !== undefined))];
  const withCards =
    query.type === undefined &&
    query.reference === undefined &&
    query.receiverAccountIdentifier === undefined &&
    accounts.length <= 1 &&
    (status === undefined || (CARD_TRANSACTION_STATUSES as readonly string[]).includes(status)) &&
    (query.customerId === undefined || query.customerId.startsWith('Customer:'));
  const [payments, cards] = await Promise.all([
    listPayments(past === undefined ? undefined : encodeCursor(`Transaction:${past}`), limit),
    withCards
      ? services.request(
          CARDS_SUBJECTS.searchCardTransactions,
          {
            accountId: accounts[0],
            customerId: query.customerId,
            platformCustomerId: query.platformCustomerId,
            status: status as CardTransactionStatus | undefined,
            createdAfter: query.createdAfter ?? query.startDate,
            // The reference's endDate is inclusive; createdBefore is not.
            createdBefore: query.createdBefore ?? (query.endDate === undefined ? undefined : new Date(Date.parse(query.endDate) + 1).toISOString()),
            sortOrder: query.sortOrder,
            limit,
            cursor: past === undefined ? undefined : encodeCursor(`CardTransaction:${past}`),
          },
          caller,
        )
      : Promise.resolve<Page<CardTransaction>>({ data: [], hasMore: false, totalCount: 0 }),
  ]);
  const order = ascending ? 1 : -1;
  const merged = [...payments.data, ...cards.data].sort((a, b) => (uuidOf(a.id) < uuidOf(b.id) ? -order : uuidOf(a.id) > uuidOf(b.id) ? order : 0));
  const data = merged.slice(0, limit);
  const hasMore = merged.length > limit || payments.hasMore || cards.hasMore;
  const totalCount = (payments.totalCount ?? 0) + (cards.totalCount ?? 0);
  return { data, hasMore, ...(hasMore && data.length > 0 ? { nextCursor: encodeCursor(TRANSACTION_LIST_CURSOR.encode(data[data.length - 1])) } : {}), totalCount };
}

function uuidOf(id: string): string {
  return id.slice(id.indexOf(':') + 1);
}
