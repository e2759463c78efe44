import { Inject, Injectable, Logger } from '@nestjs/common';
import { CallerContext, SandboxSnapshot, ServiceSandboxState } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { Clock, sandboxStateExportSubject, sandboxStateReplaceSubject, SandboxStateStore } from '@paykit/persistence';
import { SERVICE_NAMES, ServiceName } from '@paykit/runtime';
import { SERVICE_CLIENT, ServiceClient } from '@paykit/transport';
import { AuthInvalidations } from '../auth/auth-invalidations';
import { SandboxFaultsService } from '../sandbox-faults/sandbox-faults.service';
import { SandboxSnapshotsRepository } from './sandbox-snapshots.repository';

/** Every service that keeps platform data, asked over the transport (the gateway's own part, its agents, is read here). */
const STATE_SERVICES = SERVICE_NAMES.filter((service) => service !== 'gateway');

/** The gateway's tables of a platform's sandbox state: its agents, their device codes and access tokens (not API tokens, snapshots or faults). */
export const GATEWAY_STATE_TABLES: readonly string[] = ['agent', 'agent_device_code', 'agent_access_token'];

/** A platform's whole sandbox state: each service's part, and the gateway's test clock total. */
interface PlatformState {
  clockOffsetSeconds: number;
  services: Partial<Record<ServiceName, ServiceSandboxState>>;
}

const EMPTY: PlatformState = { clockOffsetSeconds: 0, services: {} };

/**
 * Snapshots, restores and resets of a platform's sandbox state across every service. Each
 * service exports and replaces its own rows in one transaction of its own database
 * (`<service>.sandbox-state.*`, SandboxStateStore); this orchestrator holds the platform's API
 * paused (503) meanwhile, and undoes a restore that failed in any service by putting back the state it
 * read just before (docs/decisions.md, "Sandbox snapshots across services").
 */
@Injectable()
export class SandboxSnapshotsService {
  private readonly logger = new Logger(SandboxSnapshotsService.name);

  constructor(
    private readonly snapshots: SandboxSnapshotsRepository,
    private readonly faults: SandboxFaultsService,
    private readonly clock: Clock,
    @Inject(SERVICE_CLIENT) private readonly services: ServiceClient,
    /** The gateway's own part (GATEWAY_STATE_TABLES). */
    private readonly gatewayState: SandboxStateStore,
    private readonly invalidations: AuthInvalidations,
  ) {}

  async save(caller: CallerContext, name: string): Promise<SandboxSnapshot> {
    const state = await this.faults.pausing(caller.platformId, () => this.read(caller));
    return this.snapshots.save(caller.platformId, name, JSON.stringify(state), rowCounts(state));
  }

  list(caller: CallerContext): Promise<SandboxSnapshot[]> {
    return this.snapshots.list(caller.platformId);
  }

  async restore(caller: CallerContext, name: string): Promise<SandboxSnapshot> {
    const found = await this.snapshots.find(caller.platformId, name);
    if (!found) throw notFound(name);
    await this.replaceAll(caller, JSON.parse(found.state) as PlatformState);
    return found.snapshot;
  }

  /** Empties the platform's sandbox state in every service, as a restore of the empty state. */
  async reset(caller: CallerContext): Promise<void> {
    await this.replaceAll(caller, EMPTY);
  }

  async delete(caller: CallerContext, name: string): Promise<void> {
    if (!(await this.snapshots.delete(caller.platformId, name))) throw notFound(name);
  }

  private async read(caller: CallerContext): Promise<PlatformState> {
    const parts = await Promise.all(STATE_SERVICES.map((service) => this.services.request(sandboxStateExportSubject(service), {}, caller)));
    return {
      clockOffsetSeconds: await this.clock.storedOffsetSeconds(caller.platformId),
      services: { ...Object.fromEntries(STATE_SERVICES.map((service, index) => [service, parts[index]])), gateway: await this.gatewayState.export(caller.platformId) },
    };
  }

  /** Paused: reads the current state, writes `target` to every service, and on any failure writes the current state back. */
  private async replaceAll(caller: CallerContext, target: PlatformState): Promise<void> {
    await this.faults.pausing(caller.platformId, async () => {
      const before = await this.read(caller);
      const failure = await this.write(caller, target);
      if (!failure) return;
      const undone = await this.write(caller, before);
      if (undone) this.logger.error(`Sandbox state of ${caller.platformId} could not be put back after a failed restore: ${undone.message}`);
      throw new ServiceError('SERVICE_UNAVAILABLE', `The sandbox state could not be restored (${failure.message}); the platform's state is as it was before`, {
        reason: failure.message,
      });
    });
  }

  /** Writes a state to every service (each in one transaction of its own); the first failure, if any. */
  private async write(caller: CallerContext, state: PlatformState): Promise<Error | undefined> {
    const results = await Promise.allSettled([
      ...STATE_SERVICES.map((service) => this.services.request(sandboxStateReplaceSubject(service), { tables: state.services[service]?.tables ?? {} }, caller)),
      // The agents' cached verifications on every replica drop as their rows change.
      this.gatewayState.replace(caller.platformId, { tables: state.services.gateway?.tables ?? {} }, (work) =>
        this.invalidations.transaction([{ agentsOfPlatform: caller.platformId }], work),
      ),
    ]);
    const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    if (failed) return failed.reason instanceof Error ? failed.reason : new Error(String(failed.reason));
    await this.clock.restoreOffset(caller.platformId, state.clockOffsetSeconds);
    return undefined;
  }
}

function rowCounts(state: PlatformState): Record<string, number> {
  return Object.fromEntries(
    Object.entries(state.services).map(([service, part]) => [
      service,
      Object.values(part?.tables ?? {}).reduce((total, rows) => total + (JSON.parse(rows) as unknown[]).length, 0),
    ]),
  );
}

function notFound(name: string): ServiceError {
  return new ServiceError('REFERENCE_NOT_FOUND', `Sandbox snapshot ${name} not found`);
}
