export * from './decorators';
export * from './field-errors';
export * from './validate-contract';
export * from './text-hygiene';
export * from './earlier-versions';
