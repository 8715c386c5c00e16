/** Echo clipping lives in core (the MCP server shares it); the CLI imports it from here. */
export { ECHO_LIMIT, clip, clipEchoes } from '../core/echo-text.js';
