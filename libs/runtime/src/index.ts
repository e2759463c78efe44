export * from './config/runtime-config';
export * from './logger';
export * from './service-runtime';
export * from './bootstrap';
export * from './process';
export * from './probes';
export * from './metrics';
export * from './redaction';
