export * from './enums';
export * from './subjects';
export * from './events';
export * from './config-requests';
export * from './requests';
export * from './onboarding-requests';
export * from './replies';
