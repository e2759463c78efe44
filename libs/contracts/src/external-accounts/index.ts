export * from './enums';
export * from './formats';
export * from './subjects';
export * from './events';
export * from './requests';
export * from './replies';
export * from './account-info';
export * from './corridors';
