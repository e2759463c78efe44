import { MessageHandler } from '@nestjs/microservices';
import { isObservable, lastValueFrom } from 'rxjs';
import { readAtCurrentVersion } from './contract-reading';

/** The one reply a request gets on the wire: the handler's response, or its serialized error. */
export type WireReply = { response: unknown; err?: undefined } | { err: unknown; response?: undefined };

/**
 * What every handled request runs inside (the persistence library's is its platform's time), set
 * on a server once the app is built. Here, at the dispatch, rather than as a Nest interceptor: an
 * interceptor puts an rxjs chain and two async-context bindings on every request of every route.
 */
export interface MessageScope {
  around<T>(data: unknown, work: () => Promise<T>): Promise<T>;
}

export const MESSAGE_SCOPE = Symbol('MESSAGE_SCOPE');

/** Where servers report each handled message (the runtime passes its logger). */
export interface MessageLog {
  /** `ms`: the handling's duration, unrounded. */
  handled(entry: { subject: string; requestId?: string; ms: number; code?: string }): void;
}

/**
 * Runs a Nest message handler (its pipes and exception filter included) for one request, inside
 * the server's scope, and settles its one reply. Both servers answer through here, without Nest's per-message rxjs
 * stream plumbing: a request/reply handler yields exactly one value. The handler sees the
 * payload at its contract's current version (a caller one release behind sends the previous).
 */
export async function settleReply(handler: MessageHandler, data: unknown, subject: string, log?: MessageLog, scope?: MessageScope): Promise<WireReply> {
  const started = log ? performance.now() : 0;
  let reply: WireReply;
  try {
    const request = atCurrentVersion(subject, data);
    const result: unknown = await (scope ? scope.around(request, () => handler(request)) : handler(request));
    reply = { response: isObservable(result) ? await lastValueFrom(result, { defaultValue: undefined }) : result };
  } catch (err) {
    reply = { err };
  }
  if (log) {
    const requestId = (data as { ctx?: { requestId?: string } } | undefined)?.ctx?.requestId;
    const failure = reply.err as { code?: string } | null | undefined;
    const code = failure === undefined ? undefined : (failure?.code ?? 'INTERNAL_ERROR');
    log.handled({ subject, requestId, ms: performance.now() - started, code });
  }
  return reply;
}

/** The request with its payload brought to the current version of the subject's contract. */
function atCurrentVersion(subject: string, data: unknown): unknown {
  if (typeof data !== 'object' || data === null || !('payload' in data)) return data;
  const version = 'schemaVersion' in data && typeof data.schemaVersion === 'number' ? data.schemaVersion : undefined;
  const payload = readAtCurrentVersion(subject, version, data.payload);
  return payload === data.payload ? data : { ...data, payload };
}
