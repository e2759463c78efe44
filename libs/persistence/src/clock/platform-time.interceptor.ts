import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { from, mergeMap, Observable } from 'rxjs';
import { Clock } from './clock';

/**
 * Every message a service handles runs in the time of the platform that sent it (its caller
 * context), so domain code reads that platform's sandbox time from `Clock.now()`.
 */
@Injectable()
export class PlatformTimeInterceptor implements NestInterceptor {
  constructor(private readonly clock: Clock) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'rpc') return next.handle();
    const platformId = context.switchToRpc().getData<{ ctx?: { platformId?: unknown } } | undefined>()?.ctx?.platformId;
    if (typeof platformId !== 'string' || !platformId) return next.handle();
    // The handler starts on subscription, so it is subscribed inside the scope.
    return from(this.clock.offsetMs(platformId)).pipe(
      mergeMap((offsetMs) => new Observable((subscriber) => this.clock.enter(platformId, offsetMs, () => next.handle().subscribe(subscriber)))),
    );
  }
}
