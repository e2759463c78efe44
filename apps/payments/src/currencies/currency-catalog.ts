import { Injectable, OnModuleInit } from '@nestjs/common';
import { Currency } from '@paykit/contracts';
import { CurrenciesRepository, CurrencyInfo } from './currencies.repository';

/**
 * The currency reference table (name, symbol, decimals, transfer limit), read once: it only
 * changes by migration. Loaded at start, because code inside a transaction reads it, and in
 * embedded mode a query outside that transaction would wait for the session the transaction holds.
 */
@Injectable()
export class CurrencyCatalog implements OnModuleInit {
  private loading?: Promise<Map<string, CurrencyInfo>>;

  constructor(private readonly currencies: CurrenciesRepository) {}

  async onModuleInit(): Promise<void> {
    await this.all();
  }

  private all(): Promise<Map<string, CurrencyInfo>> {
    this.loading ??= this.currencies.all().then((currencies) => new Map(currencies.map((info) => [info.code, info])));
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
