declare module 'autocannon' {
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    headers?: Record<string, string>;
    /** Requests each connection goes round, in order. */
    requests?: Array<{ method?: string; path: string; headers?: Record<string, string> }>;
  }
  interface Result {
    requests: { average: number };
    latency: { average: number; p50: number; p99: number };
    non2xx: number;
  }
  export default function autocannon(options: Options): Promise<Result>;
}
