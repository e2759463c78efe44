import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Currency } from '@paykit/contracts';
import { amountFromColumn } from '@paykit/persistence';

export interface CurrencyInfo extends Currency {
  isCrypto: boolean;
  /** Largest amount of one transfer, in the smallest unit. */
  maxTransferAmount: bigint;
}

interface CurrencyRow {
  code: string;
  name: string;
  symbol: string;
  decimals: number;
  is_crypto: boolean;
  max_transfer_amount: string;
}

/** The currency reference table: the same for every platform, changed only by migration. */
@Injectable()
export class CurrenciesRepository {
  constructor(private readonly dataSource: DataSource) {}

  async all(): Promise<CurrencyInfo[]> {
    const rows = await this.dataSource.query<CurrencyRow[]>(`SELECT code, name, symbol, decimals, is_crypto, max_transfer_amount FROM currency`);
    return rows.map((row) => ({
      code: row.code,
      name: row.name,
      symbol: row.symbol,
      decimals: Number(row.decimals),
      isCrypto: row.is_crypto,
      maxTransferAmount: amountFromColumn(row.max_transfer_amount),
    }));
  }
}
