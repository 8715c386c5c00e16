declare module 'autocannon' {
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    headers?: Record<string, string>;
  }
  interface Result {
    requests: { average: number };
    latency: { average: number; p99: number };
  }
  export default function autocannon(options: Options): Promise<Result>;
}
