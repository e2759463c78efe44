import 'reflect-metadata';

// Keep test output readable: services log at warn unless a test asks for more.
process.env.LOG_LEVEL ??= 'warn';
