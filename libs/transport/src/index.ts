export * from './in-process-broker';
export * from './in-process.transport';
export * from './nats.transport';
export * from './event-bus';
export * from './service-client';
export * from './rpc-error.filter';
export * from './envelope.pipe';
export * from './message-dispatch';
