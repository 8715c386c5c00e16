/**
 * Runs one tool call on the Service, the same call the CLI and `serve` make, and shapes the
 * answer for an agent: the API body as structured content and as JSON text, files as resource
 * links (small text files inline), and any failure as an `isError` result carrying the message and
 * hint the CLI prints, with the status and code (and when to retry, after a 429).
 */
import { ServiceError } from '../core/errors.js';
import { redactSecrets } from '../core/redact.js';
import { routes, type RouteName } from '../core/routes.js';
import type { Service } from '../core/service.js';
import { CliError, describeSystemError } from '../core/client-errors.js';
import { fileContent, readFileArgument, type FileArgumentContext, type InlineText, type ResourceLink } from './tool-files.js';
import type { ToolDef } from './tool-table.js';
import { waitForJob, type JobProgress } from './wait-for-job.js';

export interface ToolResult {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string } | ResourceLink | InlineText>;
  structuredContent: Record<string, unknown>;
  isError?: boolean;
}

export interface ToolCallContext {
  service: Service;
  signal?: AbortSignal;
  /** Reports progress of a long wait (set when the client sent a progress token). */
  progress?: (progress: JobProgress) => Promise<void>;
  /** Gives an error the CLI's wording (a 401 names where the key came from). */
  explain?: (error: unknown) => unknown;
  /** How file arguments may be given on this transport. */
  files: Omit<FileArgumentContext, 'signal'>;
}

/** Multipart file fields arrive as a data: URL, a URL or (stdio) a path; the route wants the file. */
async function routeInput(name: RouteName, args: Record<string, unknown>, context: FileArgumentContext): Promise<Record<string, unknown>> {
  const files = routes[name].files as Record<string, { maxBytes: number }> | undefined;
  if (!files) return args;
  const input = { ...args };
  for (const [field, { maxBytes }] of Object.entries(files)) input[field] = await readFileArgument(args[field], maxBytes, context);
  return input;
}

async function success(service: Service, body: Record<string, unknown>, signal?: AbortSignal): Promise<ToolResult> {
  const content: ToolResult['content'] = [{ type: 'text', text: JSON.stringify(body) }];
  // An analysis is text to read, not a JSON string to unescape.
  if (typeof body.analysis_text === 'string' && body.analysis_text !== '') content.push({ type: 'text', text: body.analysis_text });
  content.push(...(await fileContent(service, body, signal)));
  return { content, structuredContent: body };
}

/** A failure as the CLI words it (what went wrong, then what to do), never with a key in it. */
export function errorResult(error: unknown): ToolResult {
  const known = describeSystemError(error) ?? error;
  const message = redactSecrets((known as Error)?.message ?? String(known));
  const hint = known instanceof ServiceError || known instanceof CliError ? known.hint : undefined;
  const body: Record<string, unknown> = {
    status: known instanceof ServiceError ? known.status : null,
    code: known instanceof ServiceError || known instanceof CliError ? known.code : 'internal',
    message,
  };
  if (hint) body.hint = redactSecrets(hint);
  if (known instanceof ServiceError && known.retryAfterSeconds !== undefined) body.retry_after_seconds = known.retryAfterSeconds;
  const lines = [message, ...(body.hint ? [body.hint as string] : [])];
  return { content: [{ type: 'text', text: lines.join('\n') }], structuredContent: { error: body }, isError: true };
}

/** A handle as the hosted resolve_handle takes it: `goldenpiano` means `@goldenpiano`. */
const BARE_HANDLE = /^[A-Za-z0-9][A-Za-z0-9._-]{2,29}$/;

/** A tool's arguments as its route takes them. */
function toolArguments(tool: ToolDef, args: Record<string, unknown>): Record<string, unknown> {
  if (tool.name === 'resolve_handle' && typeof args.input === 'string' && BARE_HANDLE.test(args.input.trim())) return { ...args, input: `@${args.input.trim()}` };
  return args;
}

export async function callTool(tool: ToolDef, args: Record<string, unknown>, context: ToolCallContext): Promise<ToolResult> {
  const { service, signal } = context;
  try {
    if (!tool.route) {
      const job = await waitForJob(service, args, { signal, progress: context.progress });
      const result = await success(service, job.body, signal);
      // A job that failed is a failed wait, as `tubekit job --wait` exits non-zero on it.
      if (job.body.status === 'failed') {
        result.isError = true;
        result.content.unshift({ type: 'text', text: `The job failed: ${job.body.error ?? 'no reason given'}` });
      }
      return result;
    }
    const body = await service.call(tool.route, (await routeInput(tool.route, toolArguments(tool, args), { ...context.files, signal })) as never, { signal });
    return await success(service, body as Record<string, unknown>, signal);
  } catch (error) {
    return errorResult(context.explain ? context.explain(error) : error);
  }
}
