/**
 * The Gemini API with video input. The video is uploaded once through the Files API (resumable:
 * a `start` request that answers with an upload URL, then the bytes with `upload, finalize`),
 * the file is waited for until it is ACTIVE, and `models/{model}:generateContent` is asked with
 * the file (`fileData`), the video's words and the prompt, `media_resolution` mapped to
 * `generationConfig.mediaResolution`. The key goes in `x-goog-api-key`, never in a URL, and never
 * to the upload URL (the session there is the upload's own).
 */
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { callModel, jsonBody, modelFailure, type ModelCall } from './model-http.js';
import type { MediaPlan } from './media-plan.js';
import { SYSTEM_INSTRUCTIONS, describeVideo, requestSection, type VideoContext } from './video-context.js';

/** An uploaded file, as the analysis cache keeps it. */
export interface GeminiFile {
  name: string;
  uri: string;
  mimeType: string;
}

interface FileResource {
  name?: string;
  uri?: string;
  mimeType?: string;
  state?: 'STATE_UNSPECIFIED' | 'PROCESSING' | 'ACTIVE' | 'FAILED';
  error?: { message?: string };
}

const keyHeader = (call: ModelCall): Record<string, string> => ({ 'x-goog-api-key': call.config.apiKey ?? '' });
const modelPath = (model: string) => model.replace(/^models\//, '');

export async function uploadVideo(call: ModelCall, file: { path: string; mimeType: string; displayName: string }): Promise<GeminiFile> {
  const { config } = call;
  const { size } = await fs.promises.stat(file.path);
  const started = await callModel(call, {
    url: `${config.baseUrl}/upload/v1beta/files`,
    headers: {
      ...keyHeader(call),
      'content-type': 'application/json',
      'x-goog-upload-protocol': 'resumable',
      'x-goog-upload-command': 'start',
      'x-goog-upload-header-content-length': String(size),
      'x-goog-upload-header-content-type': file.mimeType,
    },
    body: () => JSON.stringify({ file: { display_name: file.displayName } }),
    what: 'the start of the upload of the video',
  });
  const uploadUrl = started.headers.get('x-goog-upload-url');
  if (!uploadUrl) throw modelFailure(config, 'started an upload without giving an upload URL (no x-goog-upload-url header): not the Files API.');
  const uploaded = await callModel(call, {
    url: new URL(uploadUrl, config.baseUrl).toString(),
    headers: { 'content-length': String(size), 'x-goog-upload-offset': '0', 'x-goog-upload-command': 'upload, finalize' },
    body: () => Readable.toWeb(fs.createReadStream(file.path)) as unknown as BodyInit,
    what: 'the upload of the video',
  });
  const resource = jsonBody<{ file?: FileResource }>(call, uploaded, 'a file resource (JSON)').file;
  if (!resource?.name || !resource.uri) throw modelFailure(config, 'finished an upload without naming the file (no file.name or file.uri).');
  return { name: resource.name, uri: resource.uri, mimeType: resource.mimeType ?? file.mimeType };
}

/**
 * The file's state now: `missing` when the API no longer has it for this key (it expired, or the
 * key is another project's), so it is uploaded again.
 */
export async function fileState(call: ModelCall, file: GeminiFile): Promise<{ state: 'ACTIVE' | 'PROCESSING' | 'missing' } | { state: 'FAILED'; reason: string }> {
  const response = await callModel(call, {
    url: `${call.config.baseUrl}/v1beta/${file.name}`,
    method: 'GET',
    headers: keyHeader(call),
    what: 'the state of the uploaded video',
    accept: [403, 404],
  });
  if (response.status === 403 || response.status === 404) return { state: 'missing' };
  const resource = jsonBody<FileResource>(call, response, 'a file resource (JSON)');
  if (resource.state === 'FAILED') return { state: 'FAILED', reason: resource.error?.message ?? 'no reason given' };
  return { state: resource.state === 'ACTIVE' ? 'ACTIVE' : 'PROCESSING' };
}

/** Polls (from ½ s up to every 5 s) until the file is ACTIVE, for at most the configured timeout. */
export async function waitUntilActive(call: ModelCall, file: GeminiFile): Promise<void> {
  const deadline = Date.now() + call.config.timeoutMs;
  for (let pause = 500; ; pause = Math.min(5_000, pause * 2)) {
    const found = await fileState(call, file);
    if (found.state === 'ACTIVE') return;
    if (found.state === 'FAILED') throw modelFailure(call.config, `could not process the uploaded video (state FAILED): ${found.reason}.`);
    if (found.state === 'missing') throw modelFailure(call.config, `lost the uploaded video ${file.name} while processing it (HTTP 404).`);
    if (Date.now() + pause > deadline) {
      throw modelFailure(call.config, `was still processing the uploaded video after ${call.config.timeoutMs / 1000} s. Raise TUBEKIT_ANALYSIS_TIMEOUT (analysis.timeout), or submit again later.`);
    }
    await sleep(pause, undefined, { signal: call.signal });
  }
}

export interface GenerateRequest {
  systemInstruction: { parts: Array<{ text: string }> };
  contents: Array<{ role: 'user'; parts: Array<{ fileData: { mimeType: string; fileUri: string } } | { text: string }> }>;
  generationConfig?: { mediaResolution: string };
}

export function generateRequest(file: GeminiFile, context: VideoContext, plan: MediaPlan, prompt: string): GenerateRequest {
  const words = describeVideo(context, 'The video itself is attached (pictures and sound).');
  return {
    systemInstruction: { parts: [{ text: SYSTEM_INSTRUCTIONS }] },
    contents: [{ role: 'user', parts: [{ fileData: { mimeType: file.mimeType, fileUri: file.uri } }, { text: `${words}\n\n${requestSection(prompt)}` }] }],
    ...(plan.geminiMediaResolution ? { generationConfig: { mediaResolution: plan.geminiMediaResolution } } : {}),
  };
}

interface GenerateResponse {
  candidates?: Array<{ content?: { parts?: Array<{ text?: string; thought?: boolean }> }; finishReason?: string }>;
  promptFeedback?: { blockReason?: string; blockReasonMessage?: string };
}

/** Reasons a candidate stops on that mean the model would not answer. */
const BLOCKING_FINISH = new Set(['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY', 'LANGUAGE']);

export async function askGemini(call: ModelCall, body: GenerateRequest): Promise<string> {
  const { config } = call;
  const response = await callModel(call, {
    url: `${config.baseUrl}/v1beta/models/${encodeURIComponent(modelPath(config.model))}:generateContent`,
    headers: { ...keyHeader(call), 'content-type': 'application/json' },
    body: () => JSON.stringify(body),
    what: 'generateContent',
  });
  return geminiAnswer(call, jsonBody<GenerateResponse>(call, response, 'a generateContent answer (JSON)'));
}

export function geminiAnswer(call: ModelCall, answer: GenerateResponse): string {
  const blocked = answer.promptFeedback?.blockReason;
  if (blocked) {
    throw modelFailure(call.config, `declined the request (blocked, reason ${blocked})${answer.promptFeedback?.blockReasonMessage ? `: ${answer.promptFeedback.blockReasonMessage}` : ''}. Rephrase the prompt, or the video may not be analysable by this model.`);
  }
  const candidate = Array.isArray(answer.candidates) ? answer.candidates[0] : undefined;
  if (!candidate || typeof candidate !== 'object') throw modelFailure(call.config, 'answered without any candidate: not a generateContent answer.');
  const text = (candidate.content?.parts ?? []).filter((part) => !part.thought && typeof part.text === 'string').map((part) => part.text).join('');
  if (candidate.finishReason && BLOCKING_FINISH.has(candidate.finishReason) && !text.trim()) {
    throw modelFailure(call.config, `stopped without an answer on a safety block (finishReason ${candidate.finishReason}). Rephrase the prompt, or the video may not be analysable by this model.`);
  }
  if (!text.trim()) throw modelFailure(call.config, `answered with no text (finishReason ${candidate.finishReason ?? 'none'}).`);
  return text;
}
