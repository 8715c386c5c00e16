/**
 * The MCP tools, generated from the route table: one per route (plus the hosted service's names
 * for some of them), and wait_for_job. Each tool's input schema is its route's zod schema as JSON
 * Schema, its description the route's summary, limits, errors and an example, its annotations
 * what the method and route say about side effects. No MCP SDK here: `mcp --list-tools` and the
 * tests read the table without starting a server.
 */
import * as z from 'zod';
import type { RouteDef } from '../core/route.js';
import { errorAnswers } from '../core/route-statuses.js';
import { routes, routeNames, type RouteName } from '../core/routes.js';
import { LONG_POLL_MAX_SECONDS } from '../core/job-constants.js';
import { toolNames, type ToolNaming } from './tool-names.js';
import { toolsetOfTag, type ToolGroup, type Toolset } from './toolsets.js';
import { WAIT_FOR_JOB_MAX_SECONDS } from './wait-for-job.js';

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface ToolDef {
  name: string;
  /** The route the tool calls; absent for wait_for_job. */
  route?: RouteName;
  /** The tool this one is another name of. */
  aliasOf?: string;
  group: ToolGroup;
  summary: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations: ToolAnnotations;
}

/** Parts of the table that reach the video platform (or its stand-in) rather than only your data. */
const OPEN_WORLD_TAGS = new Set<RouteDef['tag']>(['channels', 'download', 'analysis', 'research', 'collabs', 'generation']);

function annotationsOf(name: RouteName, route: RouteDef): ToolAnnotations {
  const readOnly = route.effect === 'read';
  return {
    readOnlyHint: readOnly,
    // Updates and deletions replace or remove what was there; creations only add.
    destructiveHint: !readOnly && (route.method === 'DELETE' || route.method === 'PATCH' || name === 'saved.move'),
    idempotentHint: readOnly || route.method === 'DELETE' || route.method === 'PATCH',
    openWorldHint: OPEN_WORLD_TAGS.has(route.tag) || name === 'channels.resolve',
  };
}

const MB = 1024 * 1024;

/** The route's input as JSON Schema; a multipart file field takes a data: URL, a public URL or (stdio) a path on disk. */
export function inputJsonSchema(route: RouteDef): Record<string, unknown> {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(route.input, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  for (const [field, { maxBytes }] of Object.entries(route.files ?? {})) {
    properties[field] = {
      type: 'string',
      minLength: 1,
      description: `The file: inline as a data: URL (data:audio/wav;base64,…), a public https URL, or over stdio a path on disk (where this server runs) or a public http(s) URL; at most ${Math.round(maxBytes / MB)} MB.`,
    };
  }
  return { ...schema, type: 'object', properties };
}

function limitsOf(route: RouteDef): string[] {
  const limits: string[] = [];
  for (const [field, { maxBytes }] of Object.entries(route.files ?? {})) limits.push(`${field} at most ${Math.round(maxBytes / MB)} MB.`);
  if (route.longPoll) limits.push(`wait_seconds holds the call at most ${LONG_POLL_MAX_SECONDS} s.`);
  if (route.scope) limits.push(`The key needs the "${route.scope}" scope.`);
  if (route.openToAllPlans) limits.push('Open to every plan.');
  return limits;
}

function describeRoute(name: RouteName, route: RouteDef, naming: ToolNaming): string {
  const errors = errorAnswers(name)
    // Body stalls and oversized bodies are the transport's business, not the agent's.
    .filter((answer) => answer.status !== 408 && answer.status !== 413)
    .map((answer) => `${answer.status}: ${answer.description.replace(/`/g, '')}`);
  return [
    `${route.summary}.${naming.note ? ` ${naming.note}` : ''}`,
    `Calls ${route.method} ${route.path}.`,
    ...limitsOf(route).map((limit) => `Limit: ${limit}`),
    `Errors (isError, with status and code): ${errors.join(' | ')}`,
    `Example: ${JSON.stringify(naming.example)}`,
  ].join('\n');
}

function routeTools(name: RouteName): ToolDef[] {
  const route: RouteDef = routes[name];
  const naming: ToolNaming = toolNames[name];
  const tool: ToolDef = {
    name: naming.name,
    route: name,
    group: toolsetOfTag[route.tag],
    summary: route.summary,
    description: describeRoute(name, route, naming),
    inputSchema: inputJsonSchema(route),
    annotations: annotationsOf(name, route),
  };
  const aliases = (naming.aliases ?? []).map((alias) => ({
    ...tool,
    name: alias,
    aliasOf: tool.name,
    summary: `${route.summary} (same as ${tool.name})`,
    description: `The same tool as ${tool.name}, under the hosted service's name.\n${tool.description}`,
  }));
  return [tool, ...aliases];
}

const waitForJob: ToolDef = {
  name: 'wait_for_job',
  group: 'core',
  summary: 'Wait for a job to finish, with progress notifications',
  description: [
    'Wait for a job to finish, with progress notifications while it runs (send a progressToken to get them).',
    'Takes the job_id a submit returned: a number for channel jobs (process_channel), text for generation and analysis jobs (generate_tts, start_video_analysis).',
    `Limit: timeout_seconds (default 120, at most ${WAIT_FOR_JOB_MAX_SECONDS}); on timeout the job is returned as it stands, still running: call again.`,
    'Files the job made (audio, transcript) come back as resource links; a small transcript also inline.',
    'Errors (isError, with status and code): 404: no such job of yours | 400: a bad job_id.',
    'Example: {"job_id": "gen_9Qm2…", "timeout_seconds": 120}',
  ].join('\n'),
  inputSchema: {
    type: 'object',
    properties: {
      job_id: { type: ['string', 'integer'], description: 'The job id the submit returned.' },
      kind: { type: 'string', enum: ['channel', 'task'], description: 'Which kind of job; by default a number is a channel job, text a generation or analysis job.' },
      timeout_seconds: { type: 'integer', minimum: 1, maximum: WAIT_FOR_JOB_MAX_SECONDS, default: 120 },
    },
    required: ['job_id'],
  },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
};

let table: ToolDef[] | undefined;

/** Every tool, in route-table order, wait_for_job after get_job's family. */
export function toolTable(): ToolDef[] {
  table ??= [...routeNames.flatMap(routeTools), waitForJob];
  return table;
}

export interface ToolSelection {
  readOnly: boolean;
  toolsets: Set<Toolset>;
}

/** The tools a server started with these options exposes. */
export function selectTools(selection: ToolSelection): ToolDef[] {
  return toolTable().filter(
    (tool) => (!selection.readOnly || tool.annotations.readOnlyHint) && (tool.group === 'core' || selection.toolsets.has(tool.group)),
  );
}
