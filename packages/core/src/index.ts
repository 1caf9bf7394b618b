export * from './catalogue/catalogue-service.ts';
export * from './queue/bullmq-queue.ts';
export * from './queue/in-process-queue.ts';
export * from './queue/job-handlers.ts';
export * from './queue/job-queue.ts';
export * from './shared/errors.ts';
export * from './shared/logger.ts';
export * from './shared/money.ts';
