import { Writable } from 'node:stream';
import { createRootLogger } from './logger';

describe(createRootLogger.name, () => {
  it('never writes secrets, even when a caller logs them by mistake', async () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
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
    await new Promise((resolve) => setImmediate(resolve));
    const output = lines.join('');
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
      expect(output).not.toContain(secret);
    }
    expect(output).toContain('[redacted]');
  });
});
