import { Column, Entity, PrimaryColumn } from 'typeorm';
import { AgentPolicy, Environment } from '@paykit/contracts';

/** A platform's agent: acts for one customer of the platform within its policy. */
@Entity({ name: 'agent' })
export class AgentEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'platform_id', type: 'text' })
  platformId!: string;

  @Column({ type: 'text' })
  environment!: Environment;

  @Column({ type: 'text' })
  name!: string;

  @Column({ name: 'customer_id', type: 'text' })
  customerId!: string;

  @Column({ type: 'jsonb' })
  policy!: AgentPolicy;

  @Column({ name: 'is_paused', type: 'boolean' })
  isPaused!: boolean;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  /** Set by DELETE: the agent and its tokens stop at once; the row stays for the audit of its actions. */
  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true })
  deletedAt!: Date | null;
}
