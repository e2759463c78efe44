import { Injectable } from '@nestjs/common';
import { MessageScope } from '@paykit/transport';
import { Clock } from './clock';

/**
 * Every request a service handles runs in the time of the platform that sent it (its caller
 * context), so domain code reads that platform's sandbox time from `Clock.now()`. The service's
 * server runs each request inside this scope (`MESSAGE_SCOPE`).
 */
@Injectable()
export class PlatformTimeScope implements MessageScope {
  constructor(private readonly clock: Clock) {}

  around<T>(data: unknown, work: () => Promise<T>): Promise<T> {
    const platformId = (data as { ctx?: { platformId?: unknown } } | undefined)?.ctx?.platformId;
    if (typeof platformId !== 'string' || !platformId) return work();
    return this.clock.within(platformId, work);
  }
}
