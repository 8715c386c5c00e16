/**
 * A chat-completions API that accepts images (OpenAI, OpenRouter, Ollama, vLLM, LM Studio):
 * `POST {base_url}/chat/completions` with the video's description and transcript, each frame as
 * an `image_url` data URL labelled with its time, and the prompt last. The key, when there is
 * one, goes in `Authorization: Bearer`.
 */
import fs from 'node:fs';
import type { SampledFrame } from '../../../media/frames.js';
import { callModel, jsonBody, modelFailure, type ModelCall } from './model-http.js';
import type { MediaPlan } from './media-plan.js';
import { SYSTEM_INSTRUCTIONS, clockTime, describeVideo, requestSection, type VideoContext } from './video-context.js';
import { knownDuration } from '../../video-link.js';

type ContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string; detail: 'low' | 'high' } };

export interface ChatRequest {
  model: string;
  messages: Array<{ role: 'system' | 'user'; content: string | ContentPart[] }>;
}

/** The request body: the video's words, then each frame after its time, then the prompt. */
export async function chatRequest(model: string, context: VideoContext, frames: SampledFrame[], plan: MediaPlan, prompt: string): Promise<ChatRequest> {
  const spacing = knownDuration(context.video) / frames.length;
  const pictures = `Frames: ${frames.length}, taken evenly across the whole video (about one every ${spacing < 10 ? spacing.toFixed(1) : Math.round(spacing)} s), in order; each follows its time.`;
  const content: ContentPart[] = [{ type: 'text', text: describeVideo(context, pictures) }];
  for (const frame of frames) {
    const jpeg = await fs.promises.readFile(frame.file);
    content.push({ type: 'text', text: `Frame at ${clockTime(frame.atSeconds)}:` });
    content.push({ type: 'image_url', image_url: { url: `data:image/jpeg;base64,${jpeg.toString('base64')}`, detail: plan.detail } });
  }
  content.push({ type: 'text', text: requestSection(prompt) });
  return {
    model,
    messages: [
      { role: 'system', content: SYSTEM_INSTRUCTIONS },
      { role: 'user', content },
    ],
  };
}

interface ChatCompletion {
  choices?: Array<{
    finish_reason?: string | null;
    message?: { content?: string | Array<{ type?: string; text?: string }> | null; refusal?: string | null };
  }>;
}

export async function askChatModel(call: ModelCall, body: ChatRequest): Promise<string> {
  const { config } = call;
  const response = await callModel(call, {
    url: `${config.baseUrl}/chat/completions`,
    headers: { 'content-type': 'application/json', ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}) },
    body: () => JSON.stringify(body),
    what: 'the chat completion',
  });
  return answerText(call, jsonBody<ChatCompletion>(call, response, 'a chat completion (JSON)'));
}

/** The answer's text, or the refusal, safety stop or malformed reply it is instead. */
export function answerText(call: ModelCall, completion: ChatCompletion): string {
  const choice = Array.isArray(completion.choices) ? completion.choices[0] : undefined;
  if (!choice || typeof choice !== 'object') throw modelFailure(call.config, 'answered without any choice: not a chat completion.');
  const refusal = choice.message?.refusal;
  if (typeof refusal === 'string' && refusal.trim()) throw modelFailure(call.config, `declined to analyse the video (a refusal): ${refusal.trim()}`);
  if (choice.finish_reason === 'content_filter') throw modelFailure(call.config, 'stopped its answer on a safety block (finish_reason content_filter). Rephrase the prompt, or the video may not be analysable by this model.');
  const content = choice.message?.content;
  const text = typeof content === 'string' ? content : Array.isArray(content) ? content.map((part) => (typeof part?.text === 'string' ? part.text : '')).join('') : undefined;
  if (text === undefined) throw modelFailure(call.config, 'answered with a choice that has no message text: not a chat completion.');
  if (!text.trim()) throw modelFailure(call.config, `answered with an empty text (finish_reason ${choice.finish_reason ?? 'none'}).`);
  return text;
}
