export * from './enums';
export * from './subjects';
export * from './events';
export * from './requests';
export * from './replies';
export * from './refusals';

export * from './quotes';
export * from './incoming';
export * from './directory';
export * from './agents';
export * from './stablecoins';
