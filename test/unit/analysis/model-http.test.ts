/** Reading a model API's retry hints, keeping its key out of messages, and a dropped connection tried again once. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { callModel, redact, retryHintSeconds, providerMessage } from '../../../src/engine/features/analysis/providers/model-http.js';

const answer = (headers: Record<string, string>, text = '') => ({ status: 429, headers: new Headers(headers), text });

describe('retryHintSeconds', () => {
  it('reads Retry-After as seconds or a date, and retry-after-ms first', () => {
    expect(retryHintSeconds(answer({ 'retry-after': '7' }))).toBe(7);
    expect(retryHintSeconds(answer({ 'retry-after': '1.5' }))).toBe(1.5);
    const at = new Date(Date.now() + 30_000).toUTCString();
    expect(retryHintSeconds(answer({ 'retry-after': at }))).toBeGreaterThan(28);
    expect(retryHintSeconds(answer({ 'retry-after-ms': '250', 'retry-after': '9' }))).toBe(0.25);
  });

  it('reads Gemini\'s RetryInfo and a "try again in" text', () => {
    const gemini = JSON.stringify({ error: { code: 429, status: 'RESOURCE_EXHAUSTED', message: 'quota', details: [{ '@type': 'type.googleapis.com/google.rpc.QuotaFailure' }, { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '37s' }] } });
    expect(retryHintSeconds(answer({}, gemini))).toBe(37);
    expect(retryHintSeconds(answer({}, JSON.stringify({ error: { message: 'Rate limit reached for gpt-4o. Please try again in 6ms.' } })))).toBe(0.006);
    expect(retryHintSeconds(answer({}, 'Rate limit exceeded (30 requests/min). Try again in 2s.'))).toBe(2);
    expect(retryHintSeconds(answer({}, 'slow down'))).toBeUndefined();
  });
});

describe('redact', () => {
  it('removes the key and long runs of it, and leaves other words alone', () => {
    const key = 'sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123';
    expect(redact(`bad key ${key} given`, key)).toBe('bad key [redacted] given');
    expect(redact(`echo: ${key.slice(4, 24)}…`, key)).not.toContain(key.slice(4, 24));
    expect(redact('sk-proj-****0123 model gpt-4o', key)).toBe('sk-proj-****0123 model gpt-4o');
    expect(redact('nothing', undefined)).toBe('nothing');
  });
});

describe('providerMessage', () => {
  it('reads error.message of OpenAI, Gemini and Ollama bodies, else the text', () => {
    const of = (text: string) => providerMessage({ status: 400, headers: new Headers(), text });
    expect(of(JSON.stringify({ error: { message: 'Invalid image.', type: 'invalid_request_error' } }))).toBe('Invalid image');
    expect(of(JSON.stringify({ error: 'model "llava" not found, try pulling it first' }))).toBe('model "llava" not found, try pulling it first');
    expect(of('  <html>oops</html>\n')).toBe('<html>oops</html>');
    expect(of('')).toBe('no message');
    expect(of('x'.repeat(400))).toHaveLength(301);
  });
});

describe('callModel', () => {
  /** A server that drops the connection of the first `drops` requests (or answers them `failWith`), then answers. */
  async function dropping(drops: number, failWith?: number) {
    let seen = 0;
    const server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        seen += 1;
        at.push(Date.now());
        if (seen <= drops && failWith) res.writeHead(failWith).end('overloaded');
        else if (seen <= drops) req.socket.destroy();
        else res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      });
    });
    const at: number[] = [];
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`;
    return { url, seen: () => seen, at, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  }
  const config = { provider: 'openai-compatible' as const, baseUrl: 'http://127.0.0.1', model: 'm', timeoutMs: 5_000 };
  const call = { config, signal: new AbortController().signal };

  it('tries a server error twice more, pausing the first pause, then twice it', async () => {
    const server = await dropping(2, 503);
    try {
      const response = await callModel({ ...call, retryPauseMs: 150 }, { url: server.url, body: () => '{}', what: 'the chat completion' });
      expect(response.text).toBe('{"ok":true}');
      const [first, second, third] = server.at;
      expect(second! - first!).toBeGreaterThanOrEqual(145);
      expect(third! - second!).toBeGreaterThanOrEqual(295);
    } finally {
      await server.close();
    }
    const always = await dropping(9, 503);
    try {
      await expect(callModel({ ...call, retryPauseMs: 10 }, { url: always.url, body: () => '{}', what: 'the chat completion' })).rejects.toThrow(/server error \(HTTP 503\) 3 times: overloaded/);
      expect(always.seen()).toBe(3);
    } finally {
      await always.close();
    }
  });

  it('tries a request again once when its connection is dropped before any answer', async () => {
    const server = await dropping(1);
    try {
      const response = await callModel(call, { url: server.url, body: () => '{}', what: 'the chat completion' });
      expect(response.text).toBe('{"ok":true}');
      expect(server.seen()).toBe(2);
    } finally {
      await server.close();
    }
  });

  it('fails naming the provider when the connection drops again, or nothing listens', async () => {
    const server = await dropping(5);
    try {
      await expect(callModel(call, { url: server.url, body: () => '{}', what: 'the chat completion' })).rejects.toThrow(
        /^Video analysis failed: the vision model \(openai-compatible at 127\.0\.0\.1, model m\) could not be reached for the chat completion \((UND_ERR_SOCKET|ECONNRESET)\)/,
      );
      expect(server.seen()).toBe(2);
    } finally {
      await server.close();
    }
    await expect(callModel(call, { url: server.url, body: () => '{}', what: 'the chat completion' })).rejects.toThrow(/could not be reached for the chat completion \(ECONNREFUSED\)\. Check analysis\.base_url/);
  });
});
