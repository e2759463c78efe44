import { ClassConstructor, Type } from 'class-transformer';
import { IsInt, IsNotEmpty, IsObject, IsOptional, IsString, MaxLength, Min, ValidateNested } from 'class-validator';
import { IsOneOf, IsPositiveMinorAmount, MatchesPattern } from '@paykit/validation';
import { Environment, ENVIRONMENTS } from './common';
import { AdviceReceivedData, AuthorizationInterruptedData, CardClosedData, CardMerchantInput, CARDS_WORK_EVENTS, PullDueData } from './cards';
import { Customer, CUSTOMERS_EVENTS } from './customers';
import { EventMap } from './event-map';
import { typedIdPattern } from './ids';
import { Currency, CustomerAccountsProvisionedData, INTERNAL_ACCOUNT_TYPES, InternalAccountRecord, InternalAccountType, PAYMENTS_EVENTS } from './payments';
import { WALLET_AUTH_EVENTS, WalletProvisionedData } from './wallet-auth';

/*
 * What a consumer reads of an event's payload, as a contract class checked on arrival (the same
 * validation path as request messages). Each class declares only the fields its consumers read
 * and `implements` them from the payload type, so the two cannot drift apart; fields it does
 * not declare are dropped, not refused, so a producer may add fields (docs/compatibility.md).
 */

export class CustomerEventPayload implements Pick<Customer, 'id' | 'email'>, Partial<Pick<Customer, 'umaAddress'>> {
  @MatchesPattern(typedIdPattern('Customer'), 'a Customer id')
  id!: string;

  @IsOptional()
  @IsString()
  @MaxLength(320)
  email?: string;

  /** Payments keeps a directory of its customers' UMA addresses (receiver lookup); every customer has one, but an event of an earlier customers service may lack it. */
  @IsOptional()
  @IsString()
  @MaxLength(255)
  umaAddress?: string;
}

export class InternalAccountEventPayload implements Pick<InternalAccountRecord, 'id' | 'type' | 'customerId' | 'walletEmail'> {
  @MatchesPattern(typedIdPattern('InternalAccount'), 'an InternalAccount id')
  id!: string;

  @IsOneOf(INTERNAL_ACCOUNT_TYPES)
  type!: InternalAccountType;

  @IsOptional()
  @MatchesPattern(typedIdPattern('Customer'), 'a Customer id')
  customerId?: string;

  @IsOptional()
  @IsString()
  @MaxLength(320)
  walletEmail?: string;
}

export class CustomerAccountsProvisionedPayload implements Pick<CustomerAccountsProvisionedData, 'customerId' | 'walletAccountId' | 'walletEmail'> {
  @MatchesPattern(typedIdPattern('Customer'), 'a Customer id')
  customerId!: string;

  @IsOptional()
  @MatchesPattern(typedIdPattern('InternalAccount'), 'an InternalAccount id')
  walletAccountId?: string;

  /** Absent from events of releases before it was carried: wallet-auth then asks payments for the account. */
  @IsOptional()
  @IsString()
  @MaxLength(320)
  walletEmail?: string;
}

export class WalletProvisionedPayload implements Pick<WalletProvisionedData, 'customerId'> {
  @MatchesPattern(typedIdPattern('Customer'), 'a Customer id')
  customerId!: string;
}

export class PullDuePayload implements PullDueData {
  @MatchesPattern(typedIdPattern('CardTransaction'), 'a CardTransaction id')
  cardTransactionId!: string;
}

export class CardClosedPayload implements CardClosedData {
  @MatchesPattern(typedIdPattern('Card'), 'a Card id')
  cardId!: string;
}

/** The card currency an advice was converted to (every field present: it is the card's, not the network's). */
export class AdviceCurrencyPayload implements Currency {
  @IsString()
  @IsNotEmpty()
  code!: string;

  @IsString()
  name!: string;

  @IsString()
  symbol!: string;

  @IsInt()
  @Min(0)
  decimals!: number;
}

export class AdviceReceivedPayload implements AdviceReceivedData {
  @MatchesPattern(typedIdPattern('Card'), 'a Card id')
  cardId!: string;

  @MatchesPattern(typedIdPattern('CardTransaction'), 'a CardTransaction id')
  cardTransactionId!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  issuerTransactionToken!: string;

  @IsPositiveMinorAmount()
  amount!: number;

  // Objects, not arrays or strings: ValidateNested alone passes `[]` (no element to check), which
  // the worker could never apply (issue 19).
  @IsObject()
  @ValidateNested()
  @Type(() => AdviceCurrencyPayload)
  currency!: AdviceCurrencyPayload;

  @IsObject()
  @ValidateNested()
  @Type(() => CardMerchantInput)
  merchant!: CardMerchantInput;
}

export class AuthorizationInterruptedPayload implements AuthorizationInterruptedData {
  @MatchesPattern(typedIdPattern('CardTransaction'), 'a CardTransaction id')
  cardTransactionId!: string;

  @IsOneOf(ENVIRONMENTS)
  environment!: Environment;

  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  accountId!: string;

  @IsPositiveMinorAmount()
  amount!: number;

  @IsString()
  @IsNotEmpty()
  @MaxLength(10)
  currency!: string;
}

/**
 * The payload contract class of every event some service reads. A consumer can only handle these
 * subjects (`EventHandlers` in libs/transport): add the class here before the handler.
 */
const PAYLOAD_CLASSES = {
  [CUSTOMERS_EVENTS.customerCreated]: CustomerEventPayload,
  [CUSTOMERS_EVENTS.customerUpdated]: CustomerEventPayload,
  [PAYMENTS_EVENTS.internalAccountCreated]: InternalAccountEventPayload,
  [PAYMENTS_EVENTS.customerAccountsProvisioned]: CustomerAccountsProvisionedPayload,
  [WALLET_AUTH_EVENTS.walletProvisioned]: WalletProvisionedPayload,
  [CARDS_WORK_EVENTS.pullDue]: PullDuePayload,
  [CARDS_WORK_EVENTS.cardClosed]: CardClosedPayload,
  [CARDS_WORK_EVENTS.adviceReceived]: AdviceReceivedPayload,
  [CARDS_WORK_EVENTS.authorizationInterrupted]: AuthorizationInterruptedPayload,
};

/** What a consumer reads of each event, by subject. */
export type EventPayloadMap = { [S in keyof typeof PAYLOAD_CLASSES]: InstanceType<(typeof PAYLOAD_CLASSES)[S]> };

/** The subjects some consumer reads. */
export type ReadEventSubject = keyof EventPayloadMap;

/** Does not compile unless every event carries what its payload contract reads (a written payload passes as the read one). */
type Carrying<Written extends EventPayloadMap> = Written;
export type EventsCarryWhatIsRead = Carrying<Pick<EventMap, ReadEventSubject>>;

/** The classes that validate `EventPayloadMap` on arrival (the same path as request messages). */
export const EVENT_PAYLOAD_CONTRACTS: { [S in ReadEventSubject]: ClassConstructor<EventPayloadMap[S]> } = PAYLOAD_CLASSES;
