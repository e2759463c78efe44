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
        required: ['data', 'hasMore'],
        properties: {
          data: { type: 'array', items: { oneOf: [{ $ref: getSchemaPath(TransactionResponseDto) }, { $ref: getSchemaPath(CardTransactionResponseDto) }] } },
          hasMore: { type: 'boolean', description: 'Whether another page follows' },
          nextCursor: { type: 'string', description: 'Pass as `cursor` for the next page' },
        },
      },
    }),
  );
}

type PaymentsPage = (cursor: string | undefined, limit: number) => Promise<Page<Transaction>>;

const ID_TYPES = ['Transaction', 'CardTransaction'] as const;

/**
 * `GET /transactions` lists card transactions too (`type: CARD`): one page from each owner, merged
 * newest first. Ids are UUIDv7, so their uuid part orders both kinds by creation; the page's
 * cursor is the last id shown, and each owner's next page starts below that uuid. A `type` filter
 * (INCOMING, OUTGOING) leaves card transactions out; a `status` filter keeps those in the
 * same-named card status (PENDING), and no others.
 */
export async function listWithCardTransactions(
  services: ServiceClient,
  query: ListTransactionsQuery,
  caller: CallerContext,
  listPayments: PaymentsPage,
): Promise<Page<Transaction | CardTransaction>> {
  const limit = query.limit ?? DEFAULT_PAGE_LIMIT;
  const below = query.cursor === undefined ? undefined : uuidOfCursor(query.cursor);
  // Not a cursor of this list: payments refuses it with the field named.
  if (query.cursor !== undefined && below === undefined) return listPayments(query.cursor, limit);
  const status = query.status as string | undefined;
  // Card transactions always belong to a customer: a filter by another kind of id (the platform's) leaves them out.
  const withCards =
    query.type === undefined &&
    (status === undefined || (CARD_TRANSACTION_STATUSES as readonly string[]).includes(status)) &&
    (query.customerId === undefined || query.customerId.startsWith('Customer:'));
  const [payments, cards] = await Promise.all([
    listPayments(below === undefined ? undefined : cursorOf('Transaction', below), limit),
    withCards
      ? services.request(
          CARDS_SUBJECTS.searchCardTransactions,
          {
            accountId: query.accountId,
            customerId: query.customerId,
            status: status as CardTransactionStatus | undefined,
            createdAfter: query.createdAfter,
            createdBefore: query.createdBefore,
            limit,
            cursor: below === undefined ? undefined : cursorOf('CardTransaction', below),
          },
          caller,
        )
      : Promise.resolve<Page<CardTransaction>>({ data: [], hasMore: false }),
  ]);
  const merged = [...payments.data, ...cards.data].sort((a, b) => (uuidOf(b.id) < uuidOf(a.id) ? -1 : uuidOf(b.id) > uuidOf(a.id) ? 1 : 0));
  const data = merged.slice(0, limit);
  const hasMore = merged.length > limit || payments.hasMore || cards.hasMore;
  return { data, hasMore, ...(hasMore && data.length > 0 ? { nextCursor: Buffer.from(data[data.length - 1].id, 'utf8').toString('base64url') } : {}) };
}

function uuidOf(id: string): string {
  return id.slice(id.indexOf(':') + 1);
}

function cursorOf(idType: string, uuid: string): string {
  return Buffer.from(`${idType}:${uuid}`, 'utf8').toString('base64url');
}

/** The uuid a cursor of this list stands below, or undefined for one it never issued. */
function uuidOfCursor(cursor: string): string | undefined {
  const id = Buffer.from(cursor, 'base64url').toString('utf8');
  const type = ID_TYPES.find((t) => id.startsWith(`${t}:`));
  const uuid = type === undefined ? '' : uuidOf(id);
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(uuid) ? uuid : undefined;
}
