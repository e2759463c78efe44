import { contentTypeProblem, multipartReadError } from './edge-errors';
import { ServiceError } from '@paykit/errors';

describe(contentTypeProblem.name, () => {
  it.each([undefined, 'application/json', 'application/json; charset=utf-8', 'application/json;charset="UTF8"', 'multipart/form-data; boundary=abc', 'text/plain'])(
    'lets %j through',
    (contentType) => {
      expect(contentTypeProblem(contentType)).toBeUndefined();
    },
  );

  it.each([
    ['application/json; charset=utf-16', 'charset=utf-16'],
    ['application/json; charset=ISO-8859-1', 'charset=ISO-8859-1'],
    ['multipart/form-data', 'boundary'],
    ['multipart/form-data; charset=utf-8', 'boundary'],
  ])('refuses %j with 400 saying why', (contentType, why) => {
    const problem = contentTypeProblem(contentType);
    expect(problem?.status).toBe(400);
    expect(JSON.stringify(problem?.details)).toContain(why);
  });
});

describe(multipartReadError.name, () => {
  it('keeps the multipart library errors that carry their own status (413 for a file too large)', () => {
    const tooLarge = Object.assign(new Error('request file too large'), { statusCode: 413, code: 'FST_REQ_FILE_TOO_LARGE' });
    expect(multipartReadError(tooLarge)).toBe(tooLarge);
  });

  it("turns the parser's own failures into 400 INVALID_INPUT", () => {
    const error = multipartReadError(new Error('Unexpected end of form'));
    expect(error).toBeInstanceOf(ServiceError);
    expect((error as ServiceError).status).toBe(400);
  });
});
