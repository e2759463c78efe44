import { EndUserTerms } from '@paykit/contracts';

/** Versions of the end user terms a customer may have accepted, newest last. */
export const PUBLISHED_END_USER_TERMS_VERSIONS = ['2025-10-13'] as const;

/** The terms in force; `url` is a path the gateway serves and makes absolute. */
export function currentEndUserTerms(): EndUserTerms {
  const version = PUBLISHED_END_USER_TERMS_VERSIONS[PUBLISHED_END_USER_TERMS_VERSIONS.length - 1];
  return { version, url: `/end-user-terms/${version}` };
}

export function isPublishedEndUserTermsVersion(version: string): boolean {
  return (PUBLISHED_END_USER_TERMS_VERSIONS as readonly string[]).includes(version);
}
