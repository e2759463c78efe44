import { ANNUAL_INCOME_RANGES, EddField, KycLinkView, PURPOSES_OF_ACCOUNT, SOURCE_OF_WEALTH_CATEGORIES, VerificationError } from '@paykit/contracts';

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function label(value: string): string {
  return value
    .replace(/^RANGE_/, '')
    .replace(/_/g, ' ')
    .toLowerCase();
}

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<style>
body{font-family:system-ui,sans-serif;background:#f4f5f7;color:#1d2330;margin:0;display:flex;justify-content:center}
main{background:#fff;max-width:32rem;margin:3rem 1rem;padding:2rem;border-radius:12px;box-shadow:0 1px 4px #0002}
h1{font-size:1.4rem;margin-top:0}fieldset{border:1px solid #d6d9e0;border-radius:8px;margin:1rem 0}
label{display:block;margin:.4rem 0}select{width:100%;padding:.4rem}.error{color:#a4161a}
button{background:#2d5bff;color:#fff;border:0;border-radius:8px;padding:.7rem 1.4rem;font-size:1rem;cursor:pointer}
</style></head>
<body><main>${body}</main></body></html>`;
}

const EDD_INPUTS: Record<EddField, () => string> = {
  sourceOfWealthCategories: () =>
    `<fieldset><legend>Sources of wealth</legend>${SOURCE_OF_WEALTH_CATEGORIES.map(
      (v) => `<label><input type="checkbox" name="sourceOfWealthCategories" value="${v}"> ${label(v)}</label>`,
    ).join('')}</fieldset>`,
  purposeOfAccount: () =>
    `<label>Purpose of the account <select name="purposeOfAccount"><option value="">Choose…</option>${PURPOSES_OF_ACCOUNT.map(
      (v) => `<option value="${v}">${label(v)}</option>`,
    ).join('')}</select></label>`,
  annualIncomeRange: () =>
    `<label>Annual income <select name="annualIncomeRange"><option value="">Choose…</option>${ANNUAL_INCOME_RANGES.map((v) => `<option value="${v}">${label(v)}</option>`).join(
      '',
    )}</select></label>`,
};

/** The hosted verification page of an active link: one form, no script. */
export function verificationPage(token: string, view: KycLinkView, errors: VerificationError[] = []): string {
  const who = view.customerType === 'BUSINESS' ? 'your business' : 'your identity';
  const problems = errors.length
    ? `<div class="error" id="errors"><p>We still need:</p><ul>${errors.map((e) => `<li>${escape((e.field ?? '').replace(/^edd\./, ''))}: ${escape(e.reason)}</li>`).join('')}</ul></div>`
    : '';
  const edd = view.missingEddFields.length
    ? `<p>Please also tell us about the account (enhanced due diligence):</p>${view.missingEddFields.map((field) => EDD_INPUTS[field]()).join('')}`
    : '';
  return layout(
    'Verify your identity',
    `<h1>Verify ${who}</h1>
<p>Hello ${escape(view.displayName)}. This secure page completes the verification your provider asked for.</p>
${problems}
<form method="post" action="/kyc/${encodeURIComponent(token)}">
${edd}
<button type="submit" id="verify">Complete verification</button>
</form>
<p><small>This link works once and expires ${escape(new Date(view.expiresAt).toUTCString())}.</small></p>`,
  );
}

/** Versions of the end user terms with a published text (the customers service accepts these versions). */
const END_USER_TERMS: Record<string, string[]> = {
  '2025-10-13': [
    'These terms govern your use of payment accounts offered to you by the platform you signed up with and operated through this service.',
    'You agree to give accurate identity information, to keep your credentials secret, and to use your accounts only for lawful payments.',
    'Payments may be refused, delayed or reversed where the law, a provider or a fraud check requires it; fees are shown before you confirm a payment.',
    'Your information is processed to provide the service and to meet legal obligations, and is shared only with the providers that carry out your payments.',
  ],
};

/** The terms page of a published version; without one (or for an unknown version), a not-found page. */
export function endUserTermsPage(version: string | undefined): string | undefined {
  const paragraphs = version === undefined ? undefined : END_USER_TERMS[version];
  if (version === undefined) return layout('Terms not found', '<h1>These terms do not exist</h1><p>Check the version in the address.</p>');
  if (!paragraphs) return undefined;
  return layout(
    `End user terms, version ${version}`,
    `<h1>End user terms</h1><p><small>Version ${escape(version)}</small></p>${paragraphs.map((p) => `<p>${escape(p)}</p>`).join('')}`,
  );
}

/** The end of the flow when the platform gave no redirect address. */
export function completedPage(): string {
  return layout(
    'Verification submitted',
    '<h1 id="link-state" data-state="COMPLETED">Thank you: your verification was submitted</h1><p>You can close this page and return to the application.</p>',
  );
}

/** A link that cannot be used: used, expired or unknown. */
export function unusableLinkPage(reason: 'USED' | 'EXPIRED' | 'UNKNOWN'): string {
  const text = {
    USED: ['This verification link has already been used', 'Each link works once. If you still need to verify, ask for a new link.'],
    EXPIRED: ['This verification link has expired', 'Ask for a new link to complete your verification.'],
    UNKNOWN: ['This verification link is not valid', 'Check that you opened the whole link, or ask for a new one.'],
  }[reason];
  return layout(text[0], `<h1 id="link-state" data-state="${reason}">${escape(text[0])}</h1><p>${escape(text[1])}</p>`);
}
