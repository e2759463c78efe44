import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { Currency } from '@paykit/contracts';
import { amountFromColumn } from '@paykit/persistence';

export interface CurrencyInfo extends Currency {
  isCrypto: boolean;
  /** Largest amount of one transfer, in the smallest unit. */
  maxTransferAmount: bigint;
  /** A stablecoin's base currency, which it is worth one for one; absent for every other currency. */
  peggedTo?: string;
}

interface CurrencyRow {
  code: string;
  name: string;
  symbol: string;
  decimals: number;
  is_crypto: boolean;
  max_transfer_amount: string;
  pegged_to: string | null;
}

/** The currency reference table: the same for every platform, changed by migration and by stablecoins being enabled. */
@Injectable()
export class CurrenciesRepository {
  constructor(private readonly dataSource: DataSource) {}

  async all(): Promise<CurrencyInfo[]> {
    const rows = await this.dataSource.query<CurrencyRow[]>(`SELECT code, name, symbol, decimals, is_crypto, max_transfer_amount, pegged_to FROM currency`);
    return rows.map((row) => ({
      code: row.code,
      name: row.name,
      symbol: row.symbol,
      decimals: Number(row.decimals),
      isCrypto: row.is_crypto,
      maxTransferAmount: amountFromColumn(row.max_transfer_amount),
      ...(row.pegged_to ? { peggedTo: row.pegged_to } : {}),
    }));
  }

  /** An enabled stablecoin's currency, in the caller's transaction; a repeat changes nothing. */
  async insertStablecoin(manager: EntityManager, info: CurrencyInfo & { peggedTo: string }): Promise<void> {
    await manager.query(
      `INSERT INTO currency (code, name, symbol, decimals, is_crypto, max_transfer_amount, pegged_to) VALUES ($1, $2, $3, $4, true, $5, $6) ON CONFLICT (code) DO NOTHING`,
      [info.code, info.name, info.symbol, info.decimals, info.maxTransferAmount.toString(), info.peggedTo],
    );
  }
}
