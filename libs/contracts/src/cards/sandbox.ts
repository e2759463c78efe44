/** Sandbox: funding-source binding refused for an account id ending in one of these (the spec's table). */
export const SANDBOX_INELIGIBLE_FUNDING_SUFFIXES: ReadonlySet<string> = new Set(['002', '003']);

/** Sandbox: card issuance suffixes with an outcome other than instant activation (the spec's table). */
export const SANDBOX_CARD_ISSUANCE_SUFFIXES: ReadonlySet<string> = new Set(['001', '002', '005']);
