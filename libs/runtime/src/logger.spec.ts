import { Writable } from 'node:stream';
import { createRootLogger } from './logger';
import { redactText } from './redaction';

function capture(): { destination: Writable; output: () => Promise<string> } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return {
    destination,
    output: async () => {
      await new Promise((resolve) => setImmediate(resolve));
      return lines.join('');
    },
  };
}

describe(createRootLogger.name, () => {
  it('never writes secrets, even when a caller logs them by mistake', async () => {
    const { destination, output } = capture();
    const logger = createRootLogger({ level: 'debug', destination });
    logger.info(
      {
        headers: { authorization: 'Basic dG9rOnN1cGVyc2VjcmV0' },
        secret: 'supersecret',
        request: { secret: 'nested-secret', otpCode: '000000', privateKey: 'abcdef0123', accountNumber: '000123456789', iban: 'GB33BUKB20201555555555' },
        'service-wallet-signature': 'stamp-value',
        card: { threeDSecurePassword: 'tds-pass-1', pan: '4000123412341234', cvv: '987', panEmbedUrl: 'https://api.example/card-reveal/tok' },
      },
      'oops',
    );
    const written = await output();
    for (const secret of [
      'dG9rOnN1cGVyc2VjcmV0',
      'supersecret',
      'nested-secret',
      '000000',
      'abcdef0123',
      '000123456789',
      'GB33BUKB20201555555555',
      'stamp-value',
      'tds-pass-1',
      '4000123412341234',
      '987',
      'card-reveal/tok',
    ]) {
      expect(written).not.toContain(secret);
    }
    expect(written).toContain('[redacted]');
  });

  it('redacts personal data by key name at any depth and in any spelling of the key', async () => {
    const { destination, output } = capture();
    const logger = createRootLogger({ level: 'debug', destination });
    logger.warn(
      {
        customer: { customerEmail: 'x1', phone_number: 'x2', 'Birth-Date': 'x3', dateOfBirth: 'x4', clabe: 'x5', routingNumber: 'x6' },
        rows: [{ EMAIL: 'x7' }],
        err: Object.assign(new Error('statement failed'), { parameters: ['x8', 'x9'] }),
        tokenId: 'kept-token-id',
      },
      'lookup',
    );
    const written = await output();
    for (const value of ['x1', 'x2', 'x3', 'x4', 'x5', 'x6', 'x7', 'x8', 'x9']) expect(written).not.toContain(`"${value}"`);
    // An API token id is an identifier, not a secret: it stays for tracing.
    expect(written).toContain('kept-token-id');
    expect(JSON.parse(written).err.message).toBe('statement failed');
  });

  it('redacts values by shape in messages, stack traces and driver errors', async () => {
    const { destination, output } = capture();
    const logger = createRootLogger({ level: 'debug', destination });
    const error = new Error('duplicate key value violates unique constraint: Key (platform_id, account_number)=(Platform:1, 12345678) already exists');
    logger.error(
      `Unhandled error for ada.lovelace@example.com, IBAN DE89 3704 0044 0532 0130 00, card 4000 1234 1234 1234, phone +44 20 7946 0958, CLABE 002010077777777771: ${error.stack}`,
    );
    logger.info({ detail: 'Failing row contains (Customer:1, Ada, 1815-12-10, 07700900123).' }, 'curl -u tok_1:s3cr3t-value http://x');
    const written = await output();
    for (const value of ['ada.lovelace@example.com', 'DE89 3704', '4000 1234', '7946 0958', '002010077777777771', '12345678', '1815-12-10', '07700900123', 's3cr3t-value']) {
      expect(written).not.toContain(value);
    }
  });

  it('keeps ids, timestamps and small numbers readable', () => {
    const text = 'Customer:019542f5-b3e7-1d02-0000-000000000030 at 2026-11-25T15:26:37.123Z, retry in 5000 ms, CreateLedger1732300300000';
    expect(redactText(text)).toBe(text);
  });
});
