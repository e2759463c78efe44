import { CallerContext, ConsumeSignedRetryRequest, IssueSignedRetryRequest, SignedRetryInput } from '@paykit/contracts';
import { SignedRetryAuthority, signedAction } from './signed-action';

const ctx: CallerContext = { platformId: 'Platform:signed-action-test', environment: 'sandbox', requestId: 'signed-action-test' };
const accountId = 'InternalAccount:0190f1c2-7a6b-7cc1-9a2e-1f2d3c4b5a69';
const requestDigest = 'a3f1'.repeat(16);
const challenge = { payloadToSign: '{"type":"SIGNED_REQUEST"}', requestId: 'Request:1', expiresAt: '2025-10-13T12:05:00.000Z' };

/** An authority that records what it was asked and proves every retry with the request id it carried. */
function recordingAuthority(): SignedRetryAuthority<{ provedRequestId?: string }> & { issued: IssueSignedRetryRequest[]; consumed: ConsumeSignedRetryRequest[] } {
  const issued: IssueSignedRetryRequest[] = [];
  const consumed: ConsumeSignedRetryRequest[] = [];
  return {
    issued,
    consumed,
    issue: async (_, binding) => {
      issued.push(binding);
      return challenge;
    },
    consumeAndApply: async (_, retry, apply) => {
      consumed.push(retry);
      return apply({ provedRequestId: retry.requestId });
    },
  };
}

describe(signedAction.name, () => {
  it('answers the challenge on a first call (no signature header) and applies nothing', async () => {
    const authority = recordingAuthority();
    const apply = jest.fn(async () => 'applied');
    const outcome = await signedAction(authority, ctx, { accountId, operation: 'CARD_UPDATE', input: { requestDigest } }, apply);
    expect(outcome).toEqual({ challenge });
    expect(authority.issued).toEqual([{ accountId, operation: 'CARD_UPDATE', requestDigest }]);
    expect(authority.consumed).toEqual([]);
    expect(apply).not.toHaveBeenCalled();
  });

  it("names the action's credential type in the challenge when it has one, and binds nothing more", async () => {
    const authority = recordingAuthority();
    const outcome = await signedAction(authority, ctx, { accountId, operation: 'CREDENTIAL_REVOKE', input: { requestDigest }, challengeType: 'PASSKEY' }, async () => 'applied');
    expect(outcome).toEqual({ challenge: { ...challenge, type: 'PASSKEY' } });
    expect(authority.issued).toEqual([{ accountId, operation: 'CREDENTIAL_REVOKE', requestDigest }]);
  });

  it.each<[string, Omit<SignedRetryInput, 'requestDigest'>]>([
    ['both headers', { signature: 'stamp', requestId: 'Request:1' }],
    ['only the signature (the authority answers REQUEST_ID_MISSING)', { signature: 'stamp' }],
    ['only the request id (the authority answers WALLET_SIGNATURE_MISSING)', { requestId: 'Request:1' }],
  ])('treats a request with %s as the retry: consumes, then applies with the proof', async (_, headers) => {
    const authority = recordingAuthority();
    const outcome = await signedAction(authority, ctx, { accountId, operation: 'TRANSFER_OUT', input: { requestDigest, ...headers } }, async (proof) => proof);
    expect(authority.issued).toEqual([]);
    expect(authority.consumed).toEqual([{ accountId, operation: 'TRANSFER_OUT', requestDigest, signature: headers.signature, requestId: headers.requestId }]);
    expect(outcome).toEqual({ result: { provedRequestId: headers.requestId } });
  });
});
