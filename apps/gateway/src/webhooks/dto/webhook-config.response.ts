import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { WebhooksPlatformConfig } from '@paykit/contracts';

const PEM_EXAMPLE = '-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE...\n-----END PUBLIC KEY-----\n';

/** The webhooks service's part of `GET /config` and `PATCH /config`. */
export class WebhookConfigPartDto implements WebhooksPlatformConfig {
  @ApiPropertyOptional({ description: 'Where webhooks are POSTed; absent until set with PATCH /config', example: 'https://platform.example.com/webhooks/paykit' })
  webhookEndpoint?: string;

  @ApiProperty({
    description:
      "The platform's webhook signing public key (P-256, PEM, SPKI). Verify `X-Service-Signature` " +
      '(`{"v":"1","s":"<base64 DER signature>"}`) with `crypto.createVerify(\'SHA256\').update(rawBody).verify(pem, Buffer.from(s, \'base64\'))`.',
    example: PEM_EXAMPLE,
  })
  webhookPublicKey!: string;
}
