import { Column, Entity, PrimaryColumn } from 'typeorm';
import { Environment } from '@paykit/contracts';

/** An AgentAuth bearer token, bound to one agent and its customer; stored as a digest. */
@Entity({ name: 'agent_access_token' })
export class AgentAccessTokenEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'platform_id', type: 'text' })
  platformId!: string;

  @Column({ type: 'text' })
  environment!: Environment;

  @Column({ name: 'agent_id', type: 'text' })
  agentId!: string;

  @Column({ name: 'customer_id', type: 'text' })
  customerId!: string;

  @Column({ name: 'token_sha256', type: 'text' })
  tokenSha256!: string;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;
}
