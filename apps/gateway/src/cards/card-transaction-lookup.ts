import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, getSchemaPath } from '@nestjs/swagger';
import { CallerContext, CARDS_SUBJECTS, CardTransaction } from '@paykit/contracts';
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
