export * from './decorators';
export * from './field-errors';
export * from './validate-contract';
