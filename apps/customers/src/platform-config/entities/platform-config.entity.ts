import { Column, Entity, PrimaryColumn } from 'typeorm';
import { CardTokenization2faConfig, EmbeddedWalletConfig, FeeConfig, SandboxProfile, SupportedCurrency } from '@paykit/contracts';

/** A platform's onboarding configuration, owned by the customers service. */
@Entity({ name: 'platform_config' })
export class PlatformConfigEntity {
  @PrimaryColumn({ name: 'platform_id', type: 'text' })
  platformId!: string;

  /** Regulated platforms run their own compliance: their customers start APPROVED. */
  @Column({ type: 'boolean', default: false })
  regulated!: boolean;

  @Column({ name: 'uma_domain', type: 'text' })
  umaDomain!: string;

  /** New customers with an email get an embedded wallet (payments reads this when provisioning). */
  @Column({ name: 'embedded_wallets_enabled', type: 'boolean', default: true })
  embeddedWalletsEnabled!: boolean;

  /** SPEC (SPEC.md's sandbox tables, the default) or HOSTED (the hosted sandbox's current guides); sandbox callers only. */
  @Column({ name: 'sandbox_profile', type: 'text', default: 'SPEC' })
  sandboxProfile!: SandboxProfile;

  @Column({ name: 'supported_currencies', type: 'jsonb' })
  supportedCurrencies!: SupportedCurrency[];

  @Column({ name: 'embedded_wallet_config', type: 'jsonb', nullable: true })
  embeddedWalletConfig!: EmbeddedWalletConfig | null;

  @Column({ name: 'card_tokenization_2fa_config', type: 'jsonb', nullable: true })
  cardTokenization2faConfig!: CardTokenization2faConfig | null;

  @Column({ name: 'fee_configs', type: 'jsonb', default: () => "'[]'::jsonb" })
  feeConfigs!: FeeConfig[];

  @Column({ name: 'created_at', type: 'timestamptz', insert: false, update: false })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', insert: false })
  updatedAt!: Date;
}
