export * from './enums';
export * from './subjects';
export * from './events';
export * from './requests';
export * from './replies';
export * from './canonical-request';
export * from './sca';
