/**
 * Stand-ins for vision model APIs on 127.0.0.1 (never the internet), answering like the real ones
 * and keeping what they received so tests can check it:
 *  - a chat-completions API (`POST /v1/chat/completions`): every image must be a base64 JPEG data
 *    URL (decoded and kept), the key must come as `Authorization: Bearer`;
 *  - the Gemini API: the Files API's resumable upload (`POST /upload/v1beta/files` start, then the
 *    bytes to the upload URL it gives), `GET /v1beta/files/{id}` (PROCESSING on the first look,
 *    then ACTIVE), and `POST /v1beta/models/{model}:generateContent` on an ACTIVE file, the key in
 *    `x-goog-api-key`.
 * A request that breaks the API's rules gets the API's 400 and is listed in `violations`, so a test
 * cannot pass by accident. `failNext` queues error answers (401, 429, 5xx, refusals, garbage),
 * `hangNext` one that never comes (a timeout).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatImage {
  /** The decoded JPEG. */
  jpeg: Buffer;
  detail: string | undefined;
  width: number;
  height: number;
}

export interface ReceivedChat {
  model: string;
  authorization: string | undefined;
  /** Every text part of the user message, joined. */
  text: string;
  system: string;
  images: ChatImage[];
  /** Text labels right before each image ("Frame at 1:23:"). */
  labels: string[];
  bodyBytes: number;
}

export interface ReceivedUpload {
  displayName: string;
  mimeType: string;
  bytes: Buffer;
  /** Headers of the start request and of the bytes' request. */
  startKey: string | undefined;
  bytesKey: string | undefined;
}

export interface ReceivedGenerate {
  model: string;
  key: string | undefined;
  fileUri: string;
  text: string;
  system: string;
  mediaResolution: string | undefined;
}

export interface FixtureAnswer {
  status: number;
  headers?: Record<string, string>;
  body: string | object;
}

type Route = 'chat' | 'upload-start' | 'upload-bytes' | 'file' | 'generate';

export interface VisionFixture {
  /** Base URL of the chat API (with /v1), as analysis.base_url takes it. */
  chatBaseUrl: string;
  /** Base URL of the Gemini API. */
  geminiBaseUrl: string;
  chats: ReceivedChat[];
  uploads: ReceivedUpload[];
  generates: ReceivedGenerate[];
  fileLooks: number;
  violations: string[];
  /** Every request line and header, for checks that a key never went somewhere it should not. */
  raw: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders }>;
  /** The answer of the next `times` requests of a route, before the normal ones. */
  failNext(route: Route, answer: FixtureAnswer, times?: number): void;
  /** The next request of the route is never answered. */
  hangNext(route: Route): void;
  /** Forgets every uploaded file (they expired). */
  forgetFiles(): void;
  /** What the chat model answers (default: what it saw). */
  answerChat: (chat: ReceivedChat) => string;
  answerGemini: (request: ReceivedGenerate, file: ReceivedUpload) => string;
  reset(): void;
  close(): Promise<void>;
}

/** The JPEG's size from its start-of-frame marker; undefined for anything that is not a whole baseline/progressive JPEG. */
export function jpegSize(data: Buffer): { width: number; height: number } | undefined {
  if (data.length < 4 || data[0] !== 0xff || data[1] !== 0xd8) return undefined;
  if (data[data.length - 2] !== 0xff || data[data.length - 1] !== 0xd9) return undefined;
  for (let at = 2; at + 9 < data.length; ) {
    if (data[at] !== 0xff) return undefined;
    const marker = data[at + 1]!;
    const length = data.readUInt16BE(at + 2);
    if (marker >= 0xc0 && marker <= 0xc2) return { height: data.readUInt16BE(at + 5), width: data.readUInt16BE(at + 7) };
    at += 2 + length;
  }
  return undefined;
}

const googleError = (code: number, status: string, message: string, details?: unknown[]) => ({ error: { code, message, status, ...(details ? { details } : {}) } });

export async function startVisionFixture(): Promise<VisionFixture> {
  const queued = new Map<Route, Array<FixtureAnswer | 'hang'>>();
  const files = new Map<string, { upload: ReceivedUpload; looks: number }>();
  const sessions = new Map<string, { displayName: string; mimeType: string; length: number; startKey: string | undefined }>();
  let nextId = 1;
  let origin = '';

  const fixture: VisionFixture = {
    chatBaseUrl: '',
    geminiBaseUrl: '',
    chats: [],
    uploads: [],
    generates: [],
    fileLooks: 0,
    violations: [],
    raw: [],
    failNext(route, answer, times = 1) {
      const list = queued.get(route) ?? [];
      for (let i = 0; i < times; i++) list.push(answer);
      queued.set(route, list);
    },
    hangNext(route) {
      queued.set(route, [...(queued.get(route) ?? []), 'hang']);
    },
    forgetFiles() {
      files.clear();
    },
    answerChat: (chat) => `Model saw ${chat.images.length} frames. Prompt seen: ${chat.text.includes('Request:') ? 'yes' : 'no'}.`,
    answerGemini: (request, file) => `Gemini watched ${file.bytes.length} bytes of ${file.mimeType}.`,
    reset() {
      fixture.chats.length = 0;
      fixture.uploads.length = 0;
      fixture.generates.length = 0;
      fixture.fileLooks = 0;
      fixture.violations.length = 0;
      fixture.raw.length = 0;
      queued.clear();
      files.clear();
      sessions.clear();
      fixture.answerChat = (chat) => `Model saw ${chat.images.length} frames. Prompt seen: ${chat.text.includes('Request:') ? 'yes' : 'no'}.`;
      fixture.answerGemini = (request, file) => `Gemini watched ${file.bytes.length} bytes of ${file.mimeType}.`;
    },
    close: async () => undefined,
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const url = new URL(req.url ?? '/', origin);
      fixture.raw.push({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers });
      const send = (status: number, payload: string | object, headers: Record<string, string> = {}) => {
        const text = typeof payload === 'string' ? payload : JSON.stringify(payload);
        res.writeHead(status, { 'content-type': typeof payload === 'string' ? 'text/plain' : 'application/json; charset=UTF-8', ...headers }).end(text);
      };
      const reject = (status: number, message: string, google: boolean) => {
        fixture.violations.push(`${req.method} ${url.pathname}: ${message}`);
        send(status, google ? googleError(status, 'INVALID_ARGUMENT', message) : { error: { message, type: 'invalid_request_error' } });
      };
      const route = routeOf(req.method ?? 'GET', url);
      if (!route) return send(404, { error: { message: `unknown route ${req.method} ${url.pathname}` } });
      const next = queued.get(route)?.shift();
      if (next === 'hang') return; // never answered
      if (next) return send(next.status, next.body, next.headers);
      try {
        switch (route) {
          case 'chat':
            return chat(body, req.headers, send, (message) => reject(400, message, false));
          case 'upload-start':
            return uploadStart(body, req.headers, url, send, (message) => reject(400, message, true));
          case 'upload-bytes':
            return uploadBytes(body, req.headers, url, send, (message) => reject(400, message, true));
          case 'file':
            return fileLook(url, req.headers, send);
          case 'generate':
            return generate(body, req.headers, url, send, (message) => reject(400, message, true));
        }
      } catch (error) {
        reject(400, `unreadable request: ${(error as Error).message}`, route !== 'chat');
      }
    });
  });

  function routeOf(method: string, url: URL): Route | undefined {
    if (method === 'POST' && url.pathname === '/v1/chat/completions') return 'chat';
    if (method === 'POST' && url.pathname === '/upload/v1beta/files') return url.searchParams.has('upload_id') ? 'upload-bytes' : 'upload-start';
    if (method === 'GET' && /^\/v1beta\/files\/[a-z0-9-]+$/.test(url.pathname)) return 'file';
    if (method === 'POST' && /^\/v1beta\/models\/[^/]+:generateContent$/.test(url.pathname)) return 'generate';
    return undefined;
  }

  type Send = (status: number, payload: string | object, headers?: Record<string, string>) => void;

  function chat(body: Buffer, headers: http.IncomingHttpHeaders, send: Send, reject: (message: string) => void) {
    if (!String(headers['content-type']).startsWith('application/json')) return reject('content-type must be application/json');
    const request = JSON.parse(body.toString('utf8')) as { model?: unknown; messages?: Array<{ role: string; content: unknown }> };
    if (typeof request.model !== 'string' || !request.model) return reject('model is required');
    if (!Array.isArray(request.messages) || request.messages.length === 0) return reject('messages is required');
    const received: ReceivedChat = { model: request.model, authorization: headers.authorization, text: '', system: '', images: [], labels: [], bodyBytes: body.length };
    let lastText = '';
    for (const message of request.messages) {
      if (message.role === 'system') {
        if (typeof message.content !== 'string') return reject('system content must be text');
        received.system += message.content;
        continue;
      }
      if (message.role !== 'user') return reject(`unexpected role ${message.role}`);
      const parts = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : (message.content as Array<Record<string, any>>);
      for (const part of parts) {
        if (part.type === 'text') {
          if (typeof part.text !== 'string') return reject('a text part needs text');
          received.text += `${part.text}\n`;
          lastText = part.text;
        } else if (part.type === 'image_url') {
          const dataUrl = String(part.image_url?.url ?? '');
          const match = /^data:image\/jpeg;base64,([A-Za-z0-9+/=]+)$/.exec(dataUrl);
          if (!match) return reject('image_url.url must be a base64 JPEG data URL');
          const jpeg = Buffer.from(match[1]!, 'base64');
          const size = jpegSize(jpeg);
          if (!size) return reject('an image is not a decodable JPEG');
          received.images.push({ jpeg, detail: part.image_url.detail, ...size });
          received.labels.push(lastText);
        } else return reject(`unknown content part type ${part.type}`);
      }
    }
    fixture.chats.push(received);
    send(200, {
      id: `chatcmpl-fixture${fixture.chats.length}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: request.model,
      choices: [{ index: 0, message: { role: 'assistant', content: fixture.answerChat(received), refusal: null }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 1000, completion_tokens: 50, total_tokens: 1050 },
    });
  }

  function uploadStart(body: Buffer, headers: http.IncomingHttpHeaders, url: URL, send: Send, reject: (message: string) => void) {
    if (url.searchParams.has('key')) return reject('the key must not be in the URL');
    if (headers['x-goog-upload-protocol'] !== 'resumable') return reject('X-Goog-Upload-Protocol must be resumable');
    if (headers['x-goog-upload-command'] !== 'start') return reject('X-Goog-Upload-Command must be start');
    const length = Number(headers['x-goog-upload-header-content-length']);
    if (!(length > 0)) return reject('X-Goog-Upload-Header-Content-Length is required');
    const mimeType = String(headers['x-goog-upload-header-content-type'] ?? '');
    if (!mimeType.startsWith('video/')) return reject('X-Goog-Upload-Header-Content-Type must be a video type');
    const request = JSON.parse(body.toString('utf8')) as { file?: { display_name?: string } };
    const id = `session${nextId++}`;
    sessions.set(id, { displayName: request.file?.display_name ?? '', mimeType, length, startKey: headers['x-goog-api-key'] as string | undefined });
    send(200, '', { 'x-goog-upload-url': `${origin}/upload/v1beta/files?upload_id=${id}&upload_protocol=resumable`, 'x-goog-upload-status': 'active' });
  }

  function uploadBytes(body: Buffer, headers: http.IncomingHttpHeaders, url: URL, send: Send, reject: (message: string) => void) {
    const session = sessions.get(url.searchParams.get('upload_id') ?? '');
    if (!session) return reject('unknown upload session');
    if (headers['x-goog-upload-command'] !== 'upload, finalize') return reject('X-Goog-Upload-Command must be "upload, finalize"');
    if (headers['x-goog-upload-offset'] !== '0') return reject('X-Goog-Upload-Offset must be 0');
    if (body.length !== session.length) return reject(`got ${body.length} bytes, the start announced ${session.length}`);
    if (headers['content-length'] !== String(session.length) || headers['transfer-encoding']) return reject('the bytes must come with their Content-Length, not chunked');
    if (body.subarray(4, 8).toString('latin1') !== 'ftyp') return reject('the bytes are not an MP4 file');
    const upload: ReceivedUpload = { displayName: session.displayName, mimeType: session.mimeType, bytes: body, startKey: session.startKey, bytesKey: headers['x-goog-api-key'] as string | undefined };
    fixture.uploads.push(upload);
    const id = `fixturefile${nextId++}`;
    files.set(id, { upload, looks: 0 });
    const now = new Date().toISOString();
    send(200, {
      file: {
        name: `files/${id}`,
        displayName: session.displayName,
        mimeType: session.mimeType,
        sizeBytes: String(body.length),
        createTime: now,
        updateTime: now,
        expirationTime: new Date(Date.now() + 48 * 3600_000).toISOString(),
        sha256Hash: 'ZmFrZQ==',
        uri: `${origin}/v1beta/files/${id}`,
        state: 'PROCESSING',
        source: 'UPLOADED',
      },
    });
  }

  function fileLook(url: URL, headers: http.IncomingHttpHeaders, send: Send) {
    fixture.fileLooks += 1;
    if (!headers['x-goog-api-key']) return send(403, googleError(403, 'PERMISSION_DENIED', 'Method doesn\'t allow unregistered callers. Please use an API key.'));
    const id = url.pathname.split('/').pop()!;
    const file = files.get(id);
    if (!file) return send(403, googleError(403, 'PERMISSION_DENIED', `You do not have permission to access the File ${id} or it may not exist.`));
    file.looks += 1;
    send(200, { name: `files/${id}`, mimeType: file.upload.mimeType, uri: `${origin}/v1beta/files/${id}`, state: file.looks > 1 ? 'ACTIVE' : 'PROCESSING' });
  }

  function generate(body: Buffer, headers: http.IncomingHttpHeaders, url: URL, send: Send, reject: (message: string) => void) {
    if (url.searchParams.has('key')) return reject('the key must not be in the URL');
    const model = decodeURIComponent(url.pathname.split('/').pop()!.replace(/:generateContent$/, ''));
    const request = JSON.parse(body.toString('utf8')) as {
      contents?: Array<{ parts?: Array<{ text?: string; fileData?: { fileUri?: string; mimeType?: string } }> }>;
      systemInstruction?: { parts?: Array<{ text?: string }> };
      generationConfig?: { mediaResolution?: string };
    };
    const parts = request.contents?.flatMap((content) => content.parts ?? []) ?? [];
    const fileUri = parts.find((part) => part.fileData)?.fileData?.fileUri;
    if (!fileUri) return reject('no fileData part');
    const file = files.get(fileUri.split('/').pop()!);
    if (!file) return send(403, googleError(403, 'PERMISSION_DENIED', 'You do not have permission to access the File or it may not exist.'));
    if (file.looks < 2) return reject('the file is not ACTIVE yet');
    const resolution = request.generationConfig?.mediaResolution;
    if (resolution !== undefined && !['MEDIA_RESOLUTION_LOW', 'MEDIA_RESOLUTION_MEDIUM', 'MEDIA_RESOLUTION_HIGH'].includes(resolution)) return reject(`unknown mediaResolution ${resolution}`);
    const received: ReceivedGenerate = {
      model,
      key: headers['x-goog-api-key'] as string | undefined,
      fileUri,
      text: parts.filter((part) => typeof part.text === 'string').map((part) => part.text).join('\n'),
      system: request.systemInstruction?.parts?.map((part) => part.text).join('\n') ?? '',
      mediaResolution: resolution,
    };
    fixture.generates.push(received);
    send(200, {
      candidates: [{ content: { parts: [{ text: fixture.answerGemini(received, file.upload) }], role: 'model' }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 1000, candidatesTokenCount: 40, totalTokenCount: 1040 },
      modelVersion: model,
    });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;
  fixture.chatBaseUrl = `${origin}/v1`;
  fixture.geminiBaseUrl = origin;
  fixture.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fixture;
}
