import { Inject, Injectable } from '@nestjs/common';
import { CallerContext, CreateSandboxFaultRequest, faultErrorCode, isTypedId, SANDBOX_FAULT_ID_TYPE, SandboxFault, WEBHOOKS_SUBJECTS } from '@paykit/contracts';
import { ServiceError } from '@paykit/errors';
import { PlatformFlags } from '@paykit/persistence';
import { SERVICE_CLIENT, ServiceClient } from '@paykit/transport';
import { SandboxFaultsRepository } from './sandbox-faults.repository';

/**
 * Routes never faulted: the fault routes (a fault on `/` must stay removable) and the snapshot
 * routes (a restore's own pause must not stop the next restore from being asked for).
 */
const UNFAULTED_ROUTES = ['/sandbox/faults', '/sandbox/snapshots', '/sandbox/reset', '/sandbox/seed'];
/** A pause takes every call of the platform while it lasts. */
const PAUSE_CALLS = 1_000;

/**
 * Sandbox faults. Operation faults are the gateway's (they act at its edge, before any service
 * is asked); webhook delivery faults are the webhooks service's (they act on its attempts), asked
 * over the transport. One list and one delete for both.
 */
@Injectable()
export class SandboxFaultsService {
  /** Which platforms have a live operation fault: every other platform's call costs a map lookup. */
  private readonly live: PlatformFlags;

  constructor(
    private readonly repository: SandboxFaultsRepository,
    @Inject(SERVICE_CLIENT) private readonly services: ServiceClient,
  ) {
    this.live = new PlatformFlags((platformId) => this.repository.hasActive(platformId));
  }

  async create(caller: CallerContext, body: CreateSandboxFaultRequest): Promise<SandboxFault> {
    if (body.target === 'WEBHOOK_DELIVERY') {
      return this.services.request(WEBHOOKS_SUBJECTS.createFault, { target: body.target, effect: body.effect, status: body.status, count: body.count }, caller);
    }
    const fault = await this.repository.create(caller.platformId, {
      operation: body.operation,
      pathPrefix: body.operation === undefined ? body.pathPrefix : undefined,
      effect: body.effect,
      status: body.effect === 'ERROR' ? (body.status ?? 503) : undefined,
      delayMs: body.effect === 'ERROR' ? undefined : (body.delayMs ?? 0),
      count: body.count,
    });
    this.live.set(caller.platformId, true);
    return fault;
  }

  async list(caller: CallerContext): Promise<SandboxFault[]> {
    const [operations, deliveries] = await Promise.all([this.repository.list(caller.platformId), this.services.request(WEBHOOKS_SUBJECTS.listFaults, {}, caller)]);
    return [...operations, ...deliveries].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  async delete(caller: CallerContext, faultId: string): Promise<void> {
    if (isTypedId(faultId, SANDBOX_FAULT_ID_TYPE)) {
      if (await this.repository.delete(caller.platformId, faultId)) return;
      if ((await this.services.request(WEBHOOKS_SUBJECTS.deleteFault, { faultId }, caller)).deleted) return;
    }
    throw new ServiceError('REFERENCE_NOT_FOUND', `Sandbox fault ${faultId} not found`);
  }

  /**
   * Runs `work` with the platform's API paused: meanwhile its calls answer 503 (a fault on every
   * path, at the edge like any fault; another gateway replica sees it within a second), so no
   * request of the platform runs while its state is replaced service by service.
   */
  async pausing<T>(platformId: string, work: () => Promise<T>): Promise<T> {
    const pause = await this.repository.create(platformId, { pathPrefix: '/', effect: 'ERROR', status: 503, count: PAUSE_CALLS });
    this.live.set(platformId, true);
    try {
      return await work();
    } finally {
      await this.repository.delete(platformId, pause.id);
    }
  }

  /**
   * Applies the platform's next fault matching this call, if any: throws the injected error or
   * timeout, or waits the injected delay (real time: it is latency, not sandbox time) and lets the
   * call run. `operation` is `METHOD /path/{template}` and `path` the path, both under `{base_url}`.
   */
  async applyTo(caller: CallerContext, operation: string, path: string): Promise<void> {
    if (UNFAULTED_ROUTES.some((route) => path === route || path.startsWith(`${route}/`))) return;
    if (!(await this.live.isOn(caller.platformId))) return;
    const fault = await this.repository.take(caller.platformId, operation, path);
    if (!fault) return;
    if (fault.delayMs) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
    const details = { injectedFault: fault.id };
    switch (fault.effect) {
      case 'ERROR': {
        const status = fault.status ?? 503;
        throw new ServiceError(faultErrorCode(status), `Injected sandbox fault ${fault.id}: this call was answered ${status} without running`, details);
      }
      case 'TIMEOUT':
        throw new ServiceError('SERVICE_TIMEOUT', `Injected sandbox fault ${fault.id}: this call timed out without running`, details);
      case 'DELAY':
        return;
    }
  }
}
