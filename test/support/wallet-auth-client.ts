import { ApiKeyStamper } from '@turnkey/api-key-stamper';
import { decryptCredentialBundle, encryptOtpCodeToBundle, generateP256KeyPair, getPublicKey } from '@turnkey/crypto';
import { SoftwareAuthenticator } from '../../libs/testing/src/software-authenticator';
import { ApiClient, ApiResponse } from './api-client';
import { eventually } from './test-stack';

/** A P-256 key pair as the client library makes it (compressed public key, hex private key). */
export interface ClientKey {
  privateKey: string;
  publicKey: string;
  publicKeyUncompressed: string;
}

export function newClientKey(): ClientKey {
  return generateP256KeyPair();
}

/** The key pair behind a session private key the client decrypted. */
export function clientKeyOf(privateKey: string): ClientKey {
  return {
    privateKey,
    publicKey: Buffer.from(getPublicKey(privateKey, true)).toString('hex'),
    publicKeyUncompressed: Buffer.from(getPublicKey(privateKey, false)).toString('hex'),
  };
}

/** The `Service-Wallet-Signature` value @turnkey/api-key-stamper makes over `payload`. */
export async function stamp(payload: string, key: ClientKey): Promise<string> {
  const stamper = new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey });
  return (await stamper.stamp(payload)).stampHeaderValue;
}

export interface Wallet {
  customerId: string;
  accountId: string;
  email: string;
  emailCredentialId: string;
}

export interface Session {
  id: string;
  authMethodId: string;
  key: ClientKey;
  body: any;
}

export const RP_ORIGIN = 'http://localhost:5173';
export const RP_ID = 'localhost';

/**
 * The client side of the embedded wallet flows, written the way a platform front end would:
 * HTTP calls plus the published client libraries (@turnkey/crypto, @turnkey/api-key-stamper).
 */
export class WalletAuthClient {
  constructor(readonly api: ApiClient) {}

  /** A customer with an email gets an embedded wallet with an EMAIL_OTP credential bound to that email. */
  async createWallet(label = 'wallet'): Promise<Wallet> {
    const email = `${label}-${Math.random().toString(36).slice(2, 10)}@example.com`;
    const customer = await this.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Grace Hopper', email });
    if (customer.status !== 201) throw new Error(`customer creation failed: ${customer.status} ${JSON.stringify(customer.body)}`);
    const accountId = await eventually(async () => {
      const accounts = await this.api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customer.body.id)}&type=EMBEDDED_WALLET`);
      return accounts.status === 200 && accounts.body.data.length > 0 ? (accounts.body.data[0].id as string) : undefined;
    });
    const emailCredentialId = await eventually(async () => {
      const list = await this.api.get(`/auth/credentials?accountId=${encodeURIComponent(accountId)}`);
      const credential = list.status === 200 ? list.body.data.find((c: any) => c.type === 'EMAIL_OTP') : undefined;
      return credential ? (credential.id as string) : undefined;
    });
    return { customerId: customer.body.id, accountId, email, emailCredentialId };
  }

  async enclaveKey(): Promise<string> {
    const response = await this.api.get('/auth/enclave-key');
    if (response.status !== 200) throw new Error(`enclave key: ${response.status}`);
    return response.body.enclaveQuorumPublic;
  }

  /**
   * EMAIL_OTP/SMS_OTP: the bundle for `code`, encrypted to `target` (the bundle an answer already
   * carried, e.g. a credential just added) or else to the target of a fresh challenge, pinned to the enclave key.
   */
  async otpBundle(credentialId: string, code: string, key: ClientKey, target?: string): Promise<string> {
    let bundle = target;
    if (bundle === undefined) {
      const challenge = await this.api.post(`/auth/credentials/${credentialId}/challenge`, {});
      if (challenge.status !== 200) throw new Error(`challenge: ${challenge.status} ${JSON.stringify(challenge.body)}`);
      bundle = String(challenge.body.otpEncryptionTargetBundle);
    }
    return encryptOtpCodeToBundle(code, bundle, key.publicKey, await this.enclaveKey());
  }

  /** The whole OTP flow: challenge, encrypted code, 202, stamped retry, 200 session keyed by the client key. */
  async otpLogin(credentialId: string, type: 'EMAIL_OTP' | 'SMS_OTP' = 'EMAIL_OTP', code = '000000', target?: string): Promise<Session> {
    const key = newClientKey();
    const body = { type, encryptedOtpBundle: await this.otpBundle(credentialId, code, key, target) };
    const first = await this.api.post(`/auth/credentials/${credentialId}/verify`, body);
    if (first.status !== 202) throw new Error(`verify: ${first.status} ${JSON.stringify(first.body)}`);
    const retry = await this.api.post(`/auth/credentials/${credentialId}/verify`, body, {
      headers: { 'service-wallet-signature': await stamp(first.body.payloadToSign, key), 'request-id': first.body.requestId },
    });
    if (retry.status !== 200) throw new Error(`verify retry: ${retry.status} ${JSON.stringify(retry.body)}`);
    return { id: retry.body.id, authMethodId: retry.body.authMethodId, key, body: retry.body };
  }

  /** The two-call pattern: the first call must answer 202; the retry is signed with `key`. */
  async signed(method: 'POST' | 'PATCH' | 'DELETE', path: string, body: unknown, key: ClientKey): Promise<ApiResponse> {
    const first = await this.api.request<any>(method, path, body);
    if (first.status !== 202) return first;
    return this.api.request(method, path, body, {
      headers: { 'service-wallet-signature': await stamp(first.body.payloadToSign, key), 'request-id': first.body.requestId },
    });
  }

  /** Registers a passkey made by `authenticator` (a signed retry, since the account has a credential). */
  async addPasskey(accountId: string, authenticator: SoftwareAuthenticator, signer: ClientKey, nickname = 'Laptop'): Promise<ApiResponse> {
    const challenge = `registration-${Math.random().toString(36).slice(2)}`;
    const registration = authenticator.createRegistration({ rpId: RP_ID, origin: RP_ORIGIN, challenge });
    return this.signed(
      'POST',
      '/auth/credentials',
      {
        type: 'PASSKEY',
        accountId,
        nickname,
        challenge,
        attestation: {
          credentialId: registration.id,
          clientDataJson: registration.response.clientDataJSON,
          attestationObject: registration.response.attestationObject,
          transports: registration.response.transports,
        },
      },
      signer,
    );
  }

  /** PASSKEY: challenge with a client key, assertion, verify; the session key arrives sealed to the client key. */
  async passkeyLogin(credentialId: string, authenticator: SoftwareAuthenticator): Promise<Session> {
    const clientKey = newClientKey();
    const challenge = await this.api.post(`/auth/credentials/${credentialId}/challenge`, { clientPublicKey: clientKey.publicKeyUncompressed });
    if (challenge.status !== 200) throw new Error(`passkey challenge: ${challenge.status} ${JSON.stringify(challenge.body)}`);
    const assertion = authenticator.createAssertion({ rpId: RP_ID, origin: RP_ORIGIN, challenge: challenge.body.challenge });
    const verify = await this.api.post(`/auth/credentials/${credentialId}/verify`, { type: 'PASSKEY', assertion }, { headers: { 'request-id': challenge.body.requestId } });
    if (verify.status !== 200) throw new Error(`passkey verify: ${verify.status} ${JSON.stringify(verify.body)}`);
    return this.openSealedSession(verify.body, clientKey);
  }

  openSealedSession(body: any, clientKey: ClientKey): Session {
    const sessionPrivateKey = decryptCredentialBundle(body.encryptedSessionSigningKey, clientKey.privateKey);
    return { id: body.id, authMethodId: body.authMethodId, key: clientKeyOf(sessionPrivateKey), body };
  }
}
