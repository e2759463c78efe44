import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { RUNTIME_CONFIG, RuntimeConfig } from '@paykit/runtime';
import { Currency } from '@paykit/contracts';
import { CurrenciesRepository, CurrencyInfo } from './currencies.repository';
import { Clock } from '@paykit/persistence';

const CURRENCY_CODE = /^[A-Z0-9]{3,8}$/;

/**
 * The currency reference table (name, symbol, decimals, transfer limit), read at start, because
 * code inside a transaction reads it, and in embedded mode a query outside that transaction would
 * wait for the session the transaction holds. It grows only when a stablecoin is enabled: this
 * process adds the coin once its enabling commits (`added`), another replica reads the table again
 * on the first miss (at most once a second; only in distributed mode: embedded mode is one process,
 * and there a read outside a caller's transaction would wait for it).
 */
@Injectable()
export class CurrencyCatalog implements OnModuleInit {
  private loading?: Promise<Map<string, CurrencyInfo>>;
  private loaded = new Map<string, CurrencyInfo>();
  private stablecoinCodes = new Set<string>();

  constructor(
    private readonly currencies: CurrenciesRepository,
    @Inject(RUNTIME_CONFIG) private readonly runtime: RuntimeConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.all();
  }

  private all(): Promise<Map<string, CurrencyInfo>> {
    this.loading ??= this.currencies.all().then((currencies) => {
      this.loaded = new Map(currencies.map((info) => [info.code, info]));
      this.stablecoinCodes = new Set(currencies.filter((info) => info.peggedTo !== undefined).map((info) => info.code));
      return this.loaded;
    });
    this.loading.catch(() => (this.loading = undefined));
    return this.loading;
  }

  private lastReload = 0;

  async find(code: string): Promise<CurrencyInfo | undefined> {
    const found = (await this.all()).get(code);
    if (found || this.runtime.mode !== 'distributed' || Clock.real().getTime() - this.lastReload < 1000 || !CURRENCY_CODE.test(code)) return found;
    this.lastReload = Clock.real().getTime();
    this.loading = undefined;
    return (await this.all()).get(code);
  }

  /** A stablecoin's currency, committed: known from now on without a reload. */
  async added(info: CurrencyInfo): Promise<void> {
    (await this.all()).set(info.code, info);
    if (info.peggedTo !== undefined) this.stablecoinCodes.add(info.code);
  }

  /** The enabled stablecoins' currencies, as loaded so far (synchronous: rate lookups read it on every call). */
  loadedStablecoins(): CurrencyInfo[] {
    return [...this.stablecoinCodes].map((code) => this.loaded.get(code)!).filter(Boolean);
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
