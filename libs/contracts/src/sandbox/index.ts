export * from './request-log';
export * from './faults';
