import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'platform' })
export class PlatformEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ name: 'created_at', type: 'timestamptz', insert: false, update: false })
  createdAt!: Date;
}
