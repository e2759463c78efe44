import { Column, Entity, PrimaryColumn } from 'typeorm';

/** How far a platform's sandbox time runs ahead of real time (its test clock). No row: not advanced. */
@Entity({ name: 'platform_clock' })
export class PlatformClockEntity {
  @PrimaryColumn({ name: 'platform_id', type: 'text' })
  platformId!: string;

  @Column({ name: 'offset_seconds', type: 'bigint' })
  offsetSeconds!: string;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}
