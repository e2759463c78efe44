export * from './distributed-resources';
export * from './pglite-template';
export * from './migrations-digest';
export * from './software-authenticator';
export * from './poll-until';
