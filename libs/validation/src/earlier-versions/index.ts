export * from './document-fields';
export * from './earlier-versions';
