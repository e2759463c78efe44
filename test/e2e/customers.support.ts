import { createVerify } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AddressInfo, Socket } from 'node:net';
import { DataSource } from 'typeorm';
import { ApiClient, ApiResponse } from '../support/api-client';
import { eventually, TestStack } from '../support/test-stack';

/** Shared by the customers end-to-end files (not a spec itself). */

export interface ReceivedWebhook {
  payload: { id: string; type: string; timestamp: string; data: any };
  verified: boolean;
}

/** A platform's webhook endpoint on loopback, verifying each signature as INTEROP.md shows. */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];

  constructor(
    private readonly status = 200,
    private readonly answer = 'ok',
  ) {}

  publicKeyPem = '';
  private readonly sockets = new Set<Socket>();
  private readonly server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks);
      const { s } = JSON.parse(String(request.headers['x-service-signature'] ?? '{}')) as { s?: string };
      // A delivery may arrive before PATCH /config has answered the key: check the signature when it is read.
      const isSigned = (): boolean => !!s && !!this.publicKeyPem && createVerify('SHA256').update(raw).verify(this.publicKeyPem, Buffer.from(s, 'base64'));
      this.received.push({
        payload: JSON.parse(raw.toString('utf8')),
        get verified() {
          return isSigned();
        },
      });
      response.writeHead(this.status).end(this.status === 200 ? this.answer : 'ok');
    });
  });

  /** Starts a receiver and makes it the endpoint of the platform `api` belongs to; it answers every webhook with `status` (and, for 200, the body `answer`). */
  static async attach(api: ApiClient, status = 200, answer = 'ok'): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver(status, answer);
    receiver.server.on('connection', (socket) => {
      receiver.sockets.add(socket);
      socket.on('close', () => receiver.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    const port = (receiver.server.address() as AddressInfo).port;
    const patched = await api.patch('/config', { webhookEndpoint: `http://127.0.0.1:${port}/hooks` });
    if (patched.status !== 200) throw new Error(`PATCH /config answered ${patched.status}: ${JSON.stringify(patched.body)}`);
    receiver.publicKeyPem = patched.body.webhookPublicKey;
    return receiver;
  }

  /** Waits for the webhooks about `resourceId` whose types are `types` (in any order), and returns them all. */
  async waitFor(resourceId: string, types: string[], timeoutMs = 15_000): Promise<ReceivedWebhook[]> {
    return eventually(async () => {
      const mine = this.received.filter((r) => r.payload.data?.id === resourceId);
      const seen = mine.map((r) => r.payload.type);
      return types.every((type) => seen.includes(type)) ? mine : undefined;
    }, timeoutMs);
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/** The customers service's own database, to move time forward in a test (expiry, rate limits). */
export function customersDatabase(t: TestStack): DataSource {
  return t.stack.services.get('customers')!.get(DataSource);
}

/** A multipart/form-data POST through the gateway (documents, bulk CSV). */
export async function postForm(api: ApiClient, path: string, form: FormData): Promise<ApiResponse> {
  const auth = api.credentials!;
  const response = await fetch(api.baseUrl + path, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${auth.tokenId}:${auth.secret}`).toString('base64')}` },
    body: form,
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: response.status, headers: response.headers, body };
}

export const adaFields = {
  customerType: 'INDIVIDUAL',
  fullName: 'Ada Lovelace',
  birthDate: '1990-04-12',
  nationality: 'GB',
  email: 'ada@example.com',
  phoneNumber: '+442071234567',
  address: { line1: '1 Main St', city: 'London', postalCode: 'N1 9GU', country: 'GB' },
};

export const acmeFields = {
  customerType: 'BUSINESS',
  businessInfo: { legalName: 'Acme Payments LLC', registrationNumber: 'REG-000123', taxId: '12-3456789' },
  email: 'ops@acme.example',
  address: { line1: '1 Market St', city: 'San Francisco', state: 'CA', postalCode: '94105', country: 'US' },
};

export async function created(api: ApiClient, body: Record<string, unknown>): Promise<any> {
  const response = await api.post('/customers', body);
  if (response.status !== 201) throw new Error(`POST /customers answered ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body;
}

/** A CSV file as the bulk import takes it: one multipart `file` field. */
export function csvForm(content: string | Buffer, name = 'customers.csv'): FormData {
  const form = new FormData();
  form.append('file', new Blob([typeof content === 'string' ? content : new Uint8Array(content)], { type: 'text/csv' }), name);
  return form;
}

/** The bulk import's CSV header: every column it reads. */
export const BULK_HEADER =
  'customerType,platformCustomerId,fullName,birthDate,nationality,email,address.line1,address.city,address.postalCode,address.country,businessInfo.legalName,businessInfo.registrationNumber,sourceOfWealthCategories';
