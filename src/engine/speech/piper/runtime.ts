/**
 * sherpa-onnx's native runtime, loaded on first use (from `sherpa-onnx-node`, or the module
 * TUBEKIT_SHERPA_ONNX names). When its library cannot load on this machine, Piper voices answer
 * 503 naming the cause; eSpeak voices never need it.
 */
import { createRequire } from 'node:module';
import { ServiceError } from '../../../core/errors.js';

export interface SherpaTts {
  generate(request: { text: string; sid: number; speed: number }): { samples: Float32Array; sampleRate: number };
  sampleRate: number;
}

export interface SherpaModule {
  OfflineTts: new (config: unknown) => SherpaTts;
}

let loaded: { module: SherpaModule } | { error: string } | undefined;

export function sherpaRuntime(): SherpaModule {
  if (!loaded) {
    try {
      loaded = { module: createRequire(import.meta.url)(process.env.TUBEKIT_SHERPA_ONNX || 'sherpa-onnx-node') as SherpaModule };
    } catch (error) {
      loaded = { error: ((error as Error).message.split('\n')[0] ?? String(error)).slice(0, 300) };
    }
  }
  if ('module' in loaded) return loaded.module;
  throw new ServiceError({
    status: 503,
    code: 'unavailable',
    message: `Piper voices are unavailable here: the sherpa-onnx runtime could not load (${loaded.error}). eSpeak voices still work.`,
    hint: `sherpa-onnx-node ships prebuilt libraries for Linux, macOS and Windows on x64 and arm64 (${process.platform}-${process.arch} here); reinstall tubekit's dependencies, or use an espeak- voice.`,
  });
}
