export * from './request-log';
