export * from './errors.js';
export * from './exit-codes.js';
export * from './route.js';
export * from './routes.js';
export * from './service.js';
export * from './channel-input.js';
export * from './version.js';
export { formatIssues } from './schemas/format-issues.js';
export type { UploadedFile } from './schemas/params.js';
