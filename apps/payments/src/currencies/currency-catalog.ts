import { Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Currency } from '@paykit/contracts';

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

/**
 * The currency reference table (name, symbol, decimals, transfer limit), read once: it only
 * changes by migration. Loaded at start, because code inside a transaction reads it, and in
 * embedded mode a query outside that transaction would wait for the session the transaction holds.
 */
@Injectable()
export class CurrencyCatalog implements OnModuleInit {
  private loading?: Promise<Map<string, CurrencyInfo>>;

  constructor(private readonly dataSource: DataSource) {}

  async onModuleInit(): Promise<void> {
    await this.all();
  }

  private all(): Promise<Map<string, CurrencyInfo>> {
    this.loading ??= (async () => {
      const rows = (await this.dataSource.query<CurrencyRow[]>(`SELECT code, name, symbol, decimals, is_crypto, max_transfer_amount FROM currency`));
      return new Map(
        rows.map((row) => [
          row.code,
          { code: row.code, name: row.name, symbol: row.symbol, decimals: Number(row.decimals), isCrypto: row.is_crypto, maxTransferAmount: BigInt(row.max_transfer_amount) },
        ]),
      );
    })();
    this.loading.catch(() => (this.loading = undefined));
    return this.loading;
  }

  async find(code: string): Promise<CurrencyInfo | undefined> {
    return (await this.all()).get(code);
  }

  async get(code: string): Promise<CurrencyInfo> {
    const found = await this.find(code);
    if (!found) throw new Error(`Unknown currency ${code}`);
    return found;
  }
}

/** The API's Currency object. */
export function toCurrency(info: CurrencyInfo): Currency {
  return { code: info.code, name: info.name, symbol: info.symbol, decimals: info.decimals };
}
