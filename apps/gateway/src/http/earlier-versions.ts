import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  applyEarlierVersionAllowance,
  EarlierVersionAllowance,
  earlierVersionAllowances,
  ignoredFieldWarning,
  operationKey,
  operationsWithReplyWarnings,
  refusedEarlierVersionFields,
  requestFields,
} from '@paykit/validation';
import { ServiceError } from '@paykit/errors';
import { sendError } from '../errors/http-error.filter';

interface EarlierVersionRequest {
  earlierVersionFieldsIgnored?: string[];
}

/**
 * Requests written against an earlier version of the API document (libs/validation,
 * `earlier-versions`): before any validation or interceptor reads the request, its renamed fields
 * move to today's names and the fields only earlier versions had are taken out, so the contract
 * (in the gateway and in the owning service alike) sees today's request; a field no version had is
 * still refused by the contract. Where the operation's reply has `warnings`, the fields taken out
 * are listed there. A field the served document still declares for the operation is never taken
 * out: Paykit may keep a field the reference dropped.
 */
export function acceptEarlierVersionFields(fastify: FastifyInstance, servedDocument: object, basePath: string): Map<string, EarlierVersionAllowance> {
  const served = requestFields(servedDocument);
  const known = (operation: string) => {
    const fields = served.get(operation);
    return new Set([...(fields?.body.keys() ?? []), ...(fields?.query ?? [])]);
  };
  const allowances = earlierVersionAllowances(known);
  const warned = operationsWithReplyWarnings(servedDocument);
  const operationOf = (request: FastifyRequest) => {
    const route = request.routeOptions.url;
    if (!route || !route.startsWith(basePath)) return undefined;
    return operationKey(request.method, route.slice(basePath.length) || '/');
  };

  fastify.addHook('preValidation', async (request: FastifyRequest & EarlierVersionRequest, reply: FastifyReply) => {
    const operation = operationOf(request);
    // A field of an earlier version that cannot be read today and has its own message: answered
    // alone, before the errors its absence would cause elsewhere in the body.
    const refused = operation ? refusedEarlierVersionFields(operation, request.body) : [];
    if (refused.length > 0) {
      sendError(reply, ServiceError.invalidInput(refused, 'A field of an earlier version of the API is no longer accepted'));
      return reply;
    }
    const allowance = operation ? allowances.get(operation) : undefined;
    if (!allowance) return;
    const query = typeof request.query === 'object' && request.query !== null ? (request.query as Record<string, unknown>) : undefined;
    const ignored = applyEarlierVersionAllowance(allowance, request.body, query);
    if (ignored.length > 0 && operation && warned.has(operation)) request.earlierVersionFieldsIgnored = ignored;
  });

  fastify.addHook('preSerialization', async (request: FastifyRequest & EarlierVersionRequest, reply: FastifyReply, payload: unknown) => {
    const ignored = request.earlierVersionFieldsIgnored;
    if (!ignored || reply.statusCode >= 300 || typeof payload !== 'object' || payload === null || Array.isArray(payload)) return payload;
    const resource = payload as { warnings?: unknown };
    const earlier = Array.isArray(resource.warnings) ? (resource.warnings as unknown[]) : [];
    return { ...resource, warnings: [...earlier, ...ignored.map(ignoredFieldWarning)] };
  });
  return allowances;
}
