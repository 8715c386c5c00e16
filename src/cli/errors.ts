/** The client's errors live in core (the MCP server shares them); the CLI imports them from here. */
export { CliError, cancelled, describeSystemError, jobFailed, jsonErrorLine, timedOut, usageError } from '../core/client-errors.js';
