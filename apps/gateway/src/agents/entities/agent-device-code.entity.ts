import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A one-time code the agent software redeems for its access token; stored as a digest only. */
@Entity({ name: 'agent_device_code' })
export class AgentDeviceCodeEntity {
  @PrimaryColumn({ name: 'code_sha256', type: 'text' })
  codeSha256!: string;

  @Column({ name: 'platform_id', type: 'text' })
  platformId!: string;

  @Column({ name: 'agent_id', type: 'text' })
  agentId!: string;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'redeemed_at', type: 'timestamptz', nullable: true })
  redeemedAt!: Date | null;

  /** A newer code for the agent, or the agent's deletion, voids an unredeemed one. */
  @Column({ name: 'voided_at', type: 'timestamptz', nullable: true })
  voidedAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
