export * from './request-log';
export * from './faults';
export * from './state';
