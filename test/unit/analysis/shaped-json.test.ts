/**
 * The sample analyst's JSON answers keep the shape the prompt asks for: lists stay lists (shots
 * from the transcript's cue times, as `MM:SS.s`), objects stay objects, text it cannot fill is "",
 * and no key whose shape was given is null. Prompts are the kind public analysis clients send.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../../src/engine/engine.js';
import { analyzeVideo } from '../../../src/engine/features/analysis/analyst/analyze.js';
import { readAnswerShape } from '../../../src/engine/features/analysis/analyst/answer-shape.js';
import type { PlatformChannel, PlatformVideo } from '../../../src/engine/platform/platform.js';
import type { Transcript } from '../../../src/engine/platform/transcript.js';
import { tempDataDir } from '../../support/engines.js';

const MMSS = /^\d{2}:\d{2}\.\d$/;
const seconds = (stamp: string) => Number(stamp.slice(0, 2)) * 60 + Number(stamp.slice(3));

let dataDir: string;
let engine: Engine;
let spoken: { video: PlatformVideo; channel: PlatformChannel; transcript: Transcript };
let silent: { video: PlatformVideo; channel: PlatformChannel };

beforeAll(async () => {
  dataDir = tempDataDir();
  engine = Engine.open({ dataDir, jobRunner: { mode: 'none' } });
  await engine.reseedWorld({ seed: 3, channels: 60 });
  const world = await engine.platform();
  for (const channel of world.sampleChannels(60)) {
    for (const video of world.channelVideos(channel)) {
      if (video.kind !== 'long') continue;
      const transcript = world.transcript(video.video_id);
      if (transcript && transcript.cues.length > 20 && !spoken) spoken = { video, channel, transcript };
      if (!transcript && !silent) silent = { video, channel };
    }
  }
});
afterAll(() => {
  engine.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const ask = (prompt: string, on: { video: PlatformVideo; channel: PlatformChannel; transcript?: Transcript } = spoken) =>
  JSON.parse(analyzeVideo({ prompt, resolution: 'low', video: on.video, channel: on.channel, transcript: on.transcript ?? null })) as Record<string, any>;

describe('JSON answers in the shape the prompt gives', () => {
  const clientPrompt = 'Analyze this video. Return JSON with keys: summary (string), shots (list of {start, end, description}), topics (list of strings), metadata (object with title, channel)';

  it('reads the key list with its types', () => {
    expect(readAnswerShape(clientPrompt).map((field) => [field.name, field.shape.kind])).toEqual([
      ['summary', 'text'], ['shots', 'list'], ['topics', 'list'], ['metadata', 'object'],
    ]);
  });

  it('builds shots from the transcript cue times as MM:SS.s, in order, with the cue text', () => {
    const answer = ask(clientPrompt);
    expect(typeof answer.summary).toBe('string');
    expect(answer.summary).toContain(spoken.video.title);
    expect(answer.metadata).toEqual({ title: spoken.video.title, channel: spoken.channel.title });
    expect(answer.topics.length).toBeGreaterThan(0);
    expect(answer.topics.every((topic: unknown) => typeof topic === 'string')).toBe(true);
    expect(answer.shots.length).toBeGreaterThan(1);
    const cueStarts = new Set(spoken.transcript.cues.map((cue) => Math.round(cue.start * 10) / 10));
    let previous = -1;
    for (const shot of answer.shots) {
      expect(Object.keys(shot)).toEqual(['start', 'end', 'description']);
      expect(shot.start).toMatch(MMSS);
      expect(shot.end).toMatch(MMSS);
      expect(cueStarts.has(seconds(shot.start))).toBe(true);
      expect(seconds(shot.end)).toBeGreaterThan(seconds(shot.start));
      expect(seconds(shot.start)).toBeGreaterThanOrEqual(previous);
      previous = seconds(shot.end);
      expect(shot.description.length).toBeGreaterThan(0);
    }
  });

  it('answers "" (not null, not the video\'s kind) for what a shot has that the sample world cannot see', () => {
    const answer = ask('Return JSON with keys: shots (list of {start, end, kind, camera_angle}), style (object with tone, pacing, color_palette), hook (string)');
    for (const shot of answer.shots) {
      expect(shot.kind).toBe('');
      expect(shot.camera_angle).toBe('');
    }
    expect(answer.style).toEqual({ tone: expect.any(String), pacing: '', color_palette: '' });
    expect(answer.style.tone).not.toBe('');
    expect(typeof answer.hook).toBe('string');
    expect(answer._unfilled).toEqual(expect.arrayContaining(['shots[0].kind', 'style.pacing']));
  });

  it('gives empty values of the asked type for a video without speech, never null', () => {
    const answer = ask(clientPrompt, silent);
    expect(answer.shots).toEqual([]);
    expect(typeof answer.summary).toBe('string');
    const nulls = JSON.stringify(answer).match(/null/g);
    expect(nulls).toBeNull();
  });

  it('follows a JSON example in the prompt: seconds where it shows numbers, nested lists and objects', () => {
    const answer = ask('Respond only with JSON like {"title": "", "scenes": [{"start": 0.0, "end": 4.5, "text": "..."}], "stats": {"views": 0, "likes": 0}, "is_tutorial": false}');
    expect(answer.title).toBe(spoken.video.title);
    expect(answer.scenes[0]).toEqual({ start: expect.any(Number), end: expect.any(Number), text: expect.any(String) });
    expect(answer.stats).toEqual({ views: spoken.video.views, likes: spoken.video.likes });
    expect(answer.is_tutorial).toBe(false);
  });

  it('reads one key per line, and a shot count', () => {
    const answer = ask('Return JSON with these fields:\n- summary: string\n- shots: array of objects with start (MM:SS.s), end (MM:SS.s), description\n- people: list of strings\nGive 5 shots.');
    expect(answer.shots).toHaveLength(5);
    expect(answer.shots[0].start).toMatch(MMSS);
    expect(answer.people).toEqual([]);
  });

  it('cuts shots at the cue times: one a cue when no count is asked (up to 40)', () => {
    const answer = ask(clientPrompt);
    const cues = spoken.transcript.cues.length;
    expect(answer.shots.length).toBe(Math.min(cues, 40));
    if (cues <= 40) expect(answer.shots.map((shot: { start: string }) => seconds(shot.start))).toEqual(spoken.transcript.cues.map((cue) => Math.round(cue.start * 10) / 10));
  });

  it('answers about the time window the prompt names, each window its own shots', () => {
    const length = spoken.video.duration_seconds;
    const stamp = (at: number) => `${Math.floor(at / 60)}:${String(Math.floor(at % 60)).padStart(2, '0')}`;
    const edges = [0, Math.floor(length / 3), Math.floor((2 * length) / 3), Math.floor(length)];
    const answers = [0, 1, 2].map((part) => ask(`Return JSON with keys: shots (list of {start, end, description}). Only the shots in ${stamp(edges[part]!)}–${stamp(edges[part + 1]!)}.`));
    answers.forEach((answer, part) => {
      expect(answer.shots.length).toBeGreaterThan(0);
      for (const shot of answer.shots) {
        expect(seconds(shot.start)).toBeGreaterThanOrEqual(edges[part]! - 0.05);
        expect(seconds(shot.end)).toBeLessThanOrEqual(edges[part + 1]! + 0.05);
      }
    });
    expect(answers[0]!.shots[0].start).not.toBe(answers[1]!.shots[0].start);
    expect(answers[1]!.shots[0].start).not.toBe(answers[2]!.shots[0].start);
    // "between … and …" and "from … to …" name windows too; key moments follow them.
    const moments = ask(`Between ${stamp(edges[1]!)} and ${stamp(edges[2]!)}, what are the key moments? Return JSON with keys: moments (list of {start, end, text})`);
    expect(moments.moments.length).toBeGreaterThan(0);
    for (const moment of moments.moments) expect(seconds(moment.start)).toBeGreaterThanOrEqual(edges[1]! - 0.05);
  });

  it('leaves an enum field empty when it cannot choose, never filling it with transcript text', () => {
    const answer = ask('Return JSON like {"shots": [{"start": 0.0, "end": 1.0, "description": "talking|action|b-roll", "shot_type": "wide|medium|close-up"}], "category": "one of: tutorial, vlog, review"}');
    expect(answer.shots.length).toBeGreaterThan(1);
    for (const shot of answer.shots) expect(shot).toMatchObject({ description: '', shot_type: '' });
    expect(answer.category).toBe('');
    expect(answer._unfilled).toEqual(expect.arrayContaining(['shots[0].description', 'shots[0].shot_type', 'category']));
    expect(readAnswerShape('Return JSON with keys: pacing (one of: slow, medium, fast), mood (string)')[0]).toEqual({ name: 'pacing', shape: { kind: 'enum', options: ['slow', 'medium', 'fast'] } });
  });

  it('reads the keys of a JSON example that is not strict JSON', () => {
    const prompt = `Respond with JSON: {"title": "...", "quality": 1-5, 'mood': "calm" | "tense", views: <number>, shots: [{start: 0.0, end: 4.5, text: "..."}, ...],}`;
    expect(readAnswerShape(prompt).map((field) => [field.name, field.shape.kind])).toEqual([
      ['title', 'text'], ['quality', 'number'], ['mood', 'enum'], ['views', 'number'], ['shots', 'list'],
    ]);
    const answer = ask(prompt);
    expect(answer).toMatchObject({ title: spoken.video.title, quality: 0, mood: '', views: spoken.video.views });
    expect(answer.shots[0]).toEqual({ start: expect.any(Number), end: expect.any(Number), text: expect.any(String) });
  });

  it('keeps answering quoted keys without shapes as before', () => {
    const answer = ask('Return JSON with keys "title", "views", "summary" and "topics".');
    expect(answer).toMatchObject({ title: spoken.video.title, views: spoken.video.views });
    expect(Array.isArray(answer.topics)).toBe(true);
  });
});
