import { BadRequestException, Logger, NotFoundException, PayloadTooLargeException } from '@nestjs/common';
import { ServiceError } from '@paykit/errors';
import { toEnvelope, toServiceError } from './http-error.filter';

const logger = { error: jest.fn() } as unknown as Logger;

describe(toServiceError.name, () => {
  it.each([
    ['a ServiceError', new ServiceError('CARD_ALREADY_CLOSED', 'closed'), 409, 'CARD_ALREADY_CLOSED'],
    ['an unknown route', new NotFoundException(), 404, 'REFERENCE_NOT_FOUND'],
    ['Fastify invalid JSON', Object.assign(new Error('Unexpected token } in JSON'), { statusCode: 400, code: 'FST_ERR_CTP_INVALID_JSON_BODY' }), 400, 'INVALID_INPUT'],
    ['an oversized body', new PayloadTooLargeException(), 413, 'PAYLOAD_TOO_LARGE'],
    ['a framework 400', new BadRequestException('bad'), 400, 'INVALID_INPUT'],
    ['an unexpected crash', new TypeError("Cannot read properties of undefined (reading 'secretSha256')"), 500, 'INTERNAL_ERROR'],
  ])('maps %s to %d %s', (_, error, status, code) => {
    const envelope = toEnvelope(toServiceError(error, logger, 'req-1'));
    expect(envelope).toMatchObject({ status, code, message: expect.any(String) });
  });

  it('leaks nothing of an unexpected error to the client, and logs it with the request id', () => {
    const envelope = toEnvelope(toServiceError(new Error('password=hunter2 at db.ts:12'), logger, 'req-42'));
    expect(envelope).toEqual({ status: 500, code: 'INTERNAL_ERROR', message: 'Internal error' });
    expect(logger.error).toHaveBeenCalledWith(expect.stringContaining('req-42'));
  });
});
