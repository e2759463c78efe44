import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Reference data seeded by migration: the exact bankName values accepted per corridor. */
@Entity({ name: 'discovery_bank' })
export class DiscoveryBankEntity {
  @PrimaryColumn({ name: 'country', type: 'text' })
  country!: string;

  @PrimaryColumn({ name: 'currency', type: 'text' })
  currency!: string;

  @PrimaryColumn({ name: 'bank_name', type: 'text' })
  bankName!: string;

  @Column({ name: 'display_name', type: 'text' })
  displayName!: string;
}
