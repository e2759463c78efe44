import { SetMetadata } from '@nestjs/common';
import type { AgentPermission } from '@paykit/contracts';

/** What an API token may do (reference `Permission`). */
export const PERMISSIONS = ['VIEW', 'TRANSACT', 'MANAGE'] as const;
export type Permission = (typeof PERMISSIONS)[number];
export const ALL_PERMISSIONS: readonly Permission[] = PERMISSIONS;

export const REQUIRED_PERMISSION = 'paykit:required-permission';

/**
 * The permission a route needs, read by the AuthGuard. A route without it needs VIEW for a
 * GET and TRANSACT otherwise; routes that change configuration, tokens or customers declare MANAGE.
 */
export const RequiresPermission = (permission: Permission): MethodDecorator & ClassDecorator => SetMetadata(REQUIRED_PERMISSION, permission);

export function defaultPermission(method: string): Permission {
  return method === 'GET' || method === 'HEAD' ? 'VIEW' : 'TRANSACT';
}

export const REQUIRED_AGENT_PERMISSION = 'paykit:required-agent-permission';

/** The agent policy permission an AgentAuth route needs (403 FORBIDDEN naming it otherwise). */
export const RequiresAgentPermission = (permission: AgentPermission): MethodDecorator & ClassDecorator => SetMetadata(REQUIRED_AGENT_PERMISSION, permission);
