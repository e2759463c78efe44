import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsObject, IsOptional, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { IsPositiveMinorAmount } from '@paykit/validation';
import { CreateCustomerRequest } from '../customers/requests';

/**
 * One service's part of a platform's sandbox state: each of its tables' rows of the platform as
 * JSON text (kept as text end to end, so no number loses precision on the way).
 */
export interface ServiceSandboxState {
  tables: Record<string, string>;
}

export type SandboxStateExportSubject = `${string}.sandbox-state.export`;
export type SandboxStateReplaceSubject = `${string}.sandbox-state.replace`;

/** `<service>.sandbox-state.replace`: the platform's rows of every state table become these (none: deleted), in one transaction. */
export class ReplaceSandboxStateRequest implements ServiceSandboxState {
  @IsObject()
  tables!: Record<string, string>;
}

export type SandboxStateContract = { [S in SandboxStateExportSubject]: { request: Record<string, never>; reply: ServiceSandboxState } } & {
  [S in SandboxStateReplaceSubject]: { request: ReplaceSandboxStateRequest; reply: { tables: number } };
};

/** Snapshot names: what a test suite would call a state. */
export const SANDBOX_SNAPSHOT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Body of `POST /sandbox/snapshots`. */
export class CreateSandboxSnapshotRequest {
  @ApiProperty({ description: 'The name to save it under (letters, digits, `.`, `_`, `-`; up to 64); saving a name again replaces that snapshot', example: 'two-funded-customers' })
  @IsString()
  @MaxLength(64)
  @Matches(SANDBOX_SNAPSHOT_NAME, { message: 'name must be 1 to 64 letters, digits, dots, underscores or dashes, starting with a letter or digit' })
  name!: string;
}

/** A saved snapshot of a platform's sandbox state. */
export interface SandboxSnapshot {
  name: string;
  createdAt: string;
  /** Rows saved, per service. */
  rows: Record<string, number>;
}

/** One balance a seeded customer starts with: its internal account of that currency, funded. */
export class SeedBalance {
  @ApiProperty({ description: 'Currency of the internal account to fund', example: 'USD' })
  @IsString()
  @Matches(/^[A-Z]{3,5}$/, { message: 'currency must be a currency code such as USD' })
  currency!: string;

  @ApiProperty({ description: "Amount in the currency's smallest unit; greater than 0", example: 100000 })
  @IsPositiveMinorAmount()
  amount!: number;
}

/** A customer to seed: the body of `POST /customers`, and the balances to fund. */
export class SeedCustomer {
  @ApiProperty({ type: () => CreateCustomerRequest, description: 'As `POST /customers` takes it' })
  @IsObject()
  @ValidateNested()
  @Type(() => CreateCustomerRequest)
  customer!: CreateCustomerRequest;

  @ApiPropertyOptional({ type: [SeedBalance], description: 'Internal account balances to fund (sandbox money)' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @ValidateNested({ each: true })
  @Type(() => SeedBalance)
  balances?: SeedBalance[];
}

/** Body of `POST /sandbox/seed` (and the file of `npm start -- --seed <file>`). */
export class SeedSandboxRequest {
  @ApiPropertyOptional({ description: "Reset the platform's sandbox state first (POST /sandbox/reset), so the run starts from exactly this seed. Default false.", example: true })
  @IsOptional()
  @IsBoolean()
  reset?: boolean;

  @ApiProperty({ type: [SeedCustomer], description: 'Customers to create, in order, each with its balances (1 to 100)' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => SeedCustomer)
  customers!: SeedCustomer[];
}

export interface SeededCustomer {
  id: string;
  /** The funded internal accounts, one per seeded balance. */
  accounts: { currency: string; accountId: string; amount: number }[];
}

export interface SeedSandboxResult {
  customers: SeededCustomer[];
}
